/** One snapshot of a session's screen and history, for `peek`. */
import { DisposableStore } from '../../core/lifetime.js';
import type { RunnerConnection } from '../link/connection.js';

export interface FetchedSnapshot {
  cols: number;
  rows: number;
  seq: number;
  history: string;
  frame: string;
}

/** Asks for one snapshot (with up to `scrollback` history lines) and waits for all of it, on the connection's scheduler. */
export function fetchSnapshot(conn: RunnerConnection, scrollback: number, timeoutMs = 10_000): Promise<FetchedSnapshot> {
  return new Promise((resolve, reject) => {
    let cols = 0;
    let rows = 0;
    let seq = 0;
    let history = '';
    let frame = '';
    const listening = new DisposableStore();
    const stop = (err: Error | null) => {
      listening.dispose();
      if (err) reject(err);
      else resolve({ cols, rows, seq, history, frame });
    };
    listening.add(conn.scheduler.setTimeout(() => stop(new Error('the runner did not send its screen in time')), timeoutMs));
    listening.add(conn.onMessage((m) => {
      if (m.type === 'snapshot_begin') ({ cols, rows, seq } = m);
      else if (m.type === 'snapshot_screen') frame = m.data;
      else if (m.type === 'snapshot_history') history += m.data;
      else if (m.type === 'snapshot_end') stop(null);
      else if (m.type === 'error') stop(new Error(m.message));
    }));
    listening.add(conn.onClose(() => stop(new Error('the runner closed the connection'))));
    conn.send({ type: 'subscribe_terminal', scrollback });
  });
}
