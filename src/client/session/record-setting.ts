/**
 * A setting of a session's record changed (its name, its resume-after-limit): through its runner
 * while it runs (the runner owns host.json and answers `status` once the change is on disk, or an
 * `error`), else written to host.json for its next start.
 */
import type { Time } from '../../core/clock.js';
import { DisposableStore } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import { EXIT, UserError } from '../../state/errors.js';
import { writeHostFile, type SessionView } from '../../state/host-store.js';
import { hostFile } from '../../state/paths.js';
import { writing } from '../../state/write-errors.js';
import { connectSession } from './sessions.js';

export interface RecordSetting {
  /** The runner's message that makes the change. */
  msg: ClientMessage;
  /** The same change, written to a record no runner serves. */
  patch: Partial<HostRecord>;
  /** The client's name for the runner's log. */
  client: string;
  /** What failed when the runner went away first: `during the rename`. */
  gone: string;
  /** What to do again after a write the disk refused: `rename it again`. */
  again: string;
}

export async function changeRecord(home: string, s: SessionView, time: Time, o: RecordSetting): Promise<void> {
  if (s.status === 'running' || s.status === 'starting') {
    const conn = await connectSession(home, s, o.client, time);
    const listening = new DisposableStore();
    try {
      await new Promise<void>((resolve, reject) => {
        listening.add(
          conn.onMessage((m) => {
            if (m.type === 'status') resolve();
            if (m.type === 'error') reject(new UserError(m.message, m.code === 'cannot_write' ? EXIT.cannotWrite : EXIT.failure));
          }),
        );
        listening.add(conn.onClose(() => reject(new UserError(`${s.name} went away ${o.gone}`, EXIT.sessionUnavailable))));
        conn.send(o.msg);
      });
    } finally {
      listening.dispose();
      conn.dispose();
    }
    return;
  }
  const { runnerAlive: _alive, heartbeatStale: _stale, ...record } = s;
  const file = hostFile(home, s.id);
  writing("the session's record", file, () => writeHostFile(file, { ...record, ...o.patch }), o.again);
}
