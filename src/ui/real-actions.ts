import { killSession, removeSession, renameSession } from '../client/session-actions.js';
import { createSession } from '../client/sessions.js';
import { EXIT, UserError } from '../state/errors.js';
import type { BoardActions } from './board-api.js';

/** Sessions the board starts get this size until someone attaches and resizes them. */
export const BOARD_NEW_COLS = 80;
export const BOARD_NEW_ROWS = 24;

/** Anything else (a file system error, a bug) still reaches the footer as one line. */
async function oneLine<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UserError) throw err;
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';
    throw new UserError(message, EXIT.failure);
  }
}

/** What the board does to sessions, through the same client library as the CLI. */
export function createBoardActions(home: string): BoardActions {
  return {
    create: (input) =>
      oneLine(() =>
        createSession(home, {
          name: input.name,
          command: input.command,
          args: input.args,
          cwd: input.cwd,
          cols: BOARD_NEW_COLS,
          rows: BOARD_NEW_ROWS,
        }),
      ),
    kill: (s) => oneLine(() => killSession(home, s)),
    // Like `agent-board rm` without --force: a running session must be killed first.
    remove: (s) => oneLine(() => removeSession(home, s)),
    rename: (s, name) => oneLine(() => renameSession(home, s, name)),
  };
}
