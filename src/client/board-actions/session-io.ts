/** The board's actions that talk to a session's runner: keys, prompts, explain. */
import type { Time } from '../../core/clock.js';
import type { RunnerConnection } from '../link/connection.js';
import { sendDurable } from '../send/durable-send.js';
import { EXPLAIN_TIMEOUT_MS, requestExplanation } from '../session/explain.js';
import type { SessionView } from '../../state/host-store.js';
import type { BoardActions } from '../feed/board-api.js';
import { ConnectedInput } from './session-input.js';

/** How long a prompt from the board may take to be typed (as `send --timeout`'s default). */
export const BOARD_SEND_TIMEOUT_MS = 30_000;

/**
 * Opens a connection to a session's runner, for `client` (the name the
 * runner logs). Each call reads the session afresh: it may have been
 * restarted since the board last looked.
 */
export type SessionConnect = (s: SessionView, client: string) => Promise<RunnerConnection>;

/**
 * The board's actions that talk to a session's runner, over whatever
 * `connect` opens: real sockets (./board-actions.ts) or a fake runner in
 * the UI tests. A prompt goes through the very code `agent-board send` runs.
 */
export function sessionIo(
  connect: SessionConnect,
  time: Time,
  { sendTimeoutMs = BOARD_SEND_TIMEOUT_MS, explainTimeoutMs = EXPLAIN_TIMEOUT_MS } = {},
): Pick<BoardActions, 'openInput' | 'sendPrompt' | 'explain'> {
  return {
    openInput: (s) => new ConnectedInput(() => connect(s, 'board-keys'), s.name),
    sendPrompt: (s, text, commandId, opts) =>
      sendDurable({ time, connect: () => connect(s, 'board-send'), text, commandId, submit: true, wait: 'applied', timeoutMs: sendTimeoutMs, overBudget: opts?.overBudget }),
    async explain(s) {
      const conn = await connect(s, 'board-explain');
      try {
        return await requestExplanation(conn, explainTimeoutMs);
      } finally {
        conn.dispose();
      }
    },
  };
}
