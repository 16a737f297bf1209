/** `explain`: asking a runner why its session shows the state it does. */
import type { StatusExplanation } from '../../core/agents/status-explain.js';
import { DisposableStore } from '../../core/lifetime.js';
import type { RunnerConnection } from '../link/connection.js';

/** How long a runner may take to explain itself. */
export const EXPLAIN_TIMEOUT_MS = 3000;

/**
 * Asks a running session why it shows its state (the `explain` message).
 * Rejects when the runner closes, answers with an error, or is silent (timed on the connection's scheduler).
 */
export function requestExplanation(conn: RunnerConnection, timeoutMs = EXPLAIN_TIMEOUT_MS): Promise<StatusExplanation> {
  return new Promise((resolve, reject) => {
    const listening = new DisposableStore();
    const done = (fn: () => void) => {
      listening.dispose();
      fn();
    };
    const timer = conn.scheduler.setTimeout(() => done(() => reject(new Error(`the runner did not explain within ${timeoutMs} ms`))), timeoutMs);
    listening.add(timer);
    listening.add(
      conn.onMessage((m) => {
        if (m.type === 'explain') done(() => resolve(m.explanation));
        else if (m.type === 'error') done(() => reject(new Error(m.message)));
      }),
    );
    listening.add(conn.onClose(() => done(() => reject(new Error('the runner closed the connection')))));
    conn.send({ type: 'explain' });
  });
}

