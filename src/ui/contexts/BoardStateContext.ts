import { createContext, useContext, type Dispatch } from 'react';
import type { BoardAction, BoardState } from '../../core/board/board-types.js';

/** The board's state (src/core/board/board-state.ts) and its dispatch, apart from what acts on it. */
export interface BoardStore {
  /** The state this render shows. */
  state: BoardState;
  dispatch: Dispatch<BoardAction>;
  /**
   * The state with every action dispatched so far, rendered or not: keys
   * that arrive together (down then Enter) must each see what the one before did.
   */
  getState(): BoardState;
}

export const BoardStateContext = createContext<BoardStore | null>(null);

export function useBoardState(): BoardStore {
  const s = useContext(BoardStateContext);
  if (!s) throw new Error('BoardStateContext is missing: render the board through <Board>, which provides it');
  return s;
}
