/** What a board command (src/ui/commands.ts and the *-commands.ts beside it) is run with. */
import type { Dispatch } from 'react';
import type { BoardAction, BoardState } from '../core/board/board-types.js';
import type { SessionView } from '../state/host-store.js';
import type { BoardControl } from './contexts/ActionsContext.js';

export interface CommandContext {
  state: BoardState;
  /** The feed's sessions the state is over (src/ui/BoardStore.tsx). */
  sessions: readonly SessionView[];
  /** The state after every action so far (one just dispatched included). */
  getState(): BoardState;
  dispatch: Dispatch<BoardAction>;
  control: BoardControl;
}
