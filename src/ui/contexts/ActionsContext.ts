import { createContext, useContext } from 'react';
import type { BoardActions } from '../../client/feed/board-api.js';
import type { NewFields } from '../../core/board/board-types.js';
import type { DetachKey } from '../../core/terminal/detach-key.js';
import type { SessionKeys } from '../../client/board-actions/session-keys.js';

/** Why the board hands the terminal back to run-board: to attach to a session, or to quit. */
export type LeaveRequest = { kind: 'attach'; id: string } | { kind: 'quit' };

export interface BoardControl {
  /** What the board can do to sessions. */
  actions: BoardActions;
  /** Ends this rendering of the board; run-board takes it from there. */
  leave(req: LeaveRequest): void;
  /** The board has left: keys still arriving are not for it. */
  hasLeft(): boolean;
  /** Keys that came after an attach was asked for, in the same read: they go to the session. */
  typeahead(raw: string): void;
  /** What the new-session form starts with. */
  newDefaults: NewFields;
  /** The detach key as the help shows it, e.g. "Ctrl-\\". */
  detachLabel: string;
  /** The detach key, which also ends type-through. */
  detachKey: DetachKey;
  /** Where keys typed for a session go (digits for a dialog, type-through). */
  keys: SessionKeys;
  /** Revive the lost sessions as this board starts (config.json autoRevive; the first drawing only). */
  autoRevive?: boolean;
  /** Remembers in the home that the demo's walkthrough line was hidden (none: it is hidden for this run only). Throws what went wrong. */
  rememberWalkthroughHidden?(): void;
}

export const ActionsContext = createContext<BoardControl | null>(null);

export function useBoardControl(): BoardControl {
  const c = useContext(ActionsContext);
  if (!c) throw new Error('ActionsContext is missing: render the board through <Board>, which provides it');
  return c;
}
