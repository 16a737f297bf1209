/**
 * The board's reducer driven as the board's store drives it (src/ui/BoardStore.tsx), for the
 * unit tests: the state with the feed's list beside it, a new list settled by sessionsChanged
 * (`{ type: 'sessions' }`, the feed's change) and every action run over the list.
 */
import { boardReducer, initialBoardState, sessionsChanged } from '../../src/core/board/board-state.js';
import type { BoardAction, BoardSession, BoardState } from '../../src/core/board/board-types.js';

/** The state, and the list it is over. */
export type Board = BoardState & { sessions: readonly BoardSession[] };

/** An action, or the feed's list changing. */
export type Step = BoardAction | { type: 'sessions'; sessions: readonly BoardSession[] };

/** A board before the feed said anything: no sessions. */
export function emptyBoard(init: Partial<BoardState> = {}): Board {
  return { ...initialBoardState(init), sessions: [] };
}

export function run(board: Board, ...steps: Step[]): Board {
  return steps.reduce<Board>((b, step) => {
    const { sessions, ...state } = b;
    if (step.type === 'sessions') return { ...sessionsChanged(state, sessions, step.sessions), sessions: step.sessions };
    const next = boardReducer(state, step, sessions);
    return next === state ? b : { ...next, sessions }; // unchanged: the same board, as the reducer says
  }, board);
}
