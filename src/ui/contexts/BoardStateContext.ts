import { createContext, useContext, type Dispatch } from 'react';
import type { BoardAction, BoardState, BoardView } from '../../core/board/board-types.js';
import type { SessionView } from '../../state/host-store.js';

/**
 * The board's state (src/core/board/board-state.ts) over the feed's session list, and its
 * dispatch, apart from what acts on it. The list is the feed's (src/client/feed/board-feed.ts owns
 * it): the one the board last read, which the state was settled against.
 */
export interface BoardStore {
  /** The state this render shows. */
  state: BoardState;
  /** The sessions this render shows: the feed's list, as of its last change the board took. */
  sessions: readonly SessionView[];
  dispatch: Dispatch<BoardAction>;
  /**
   * The board with every action dispatched so far, rendered or not: keys
   * that arrive together (down then Enter) must each see what the one before did.
   */
  getView(): BoardView<SessionView>;
  /** getView().state. */
  getState(): BoardState;
}

export const BoardStateContext = createContext<BoardStore | null>(null);

export function useBoardState(): BoardStore {
  const s = useContext(BoardStateContext);
  if (!s) throw new Error('BoardStateContext is missing: render the board through <Board>, which provides it');
  return s;
}
