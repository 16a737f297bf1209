/**
 * What the board does to a session on another machine (a row of its --host), over ssh as
 * `--host` does: a connection through `agent-board bridge` for keys, prompts, explain and
 * kill (the runner's own `terminate`, as `kill` sends it). What the board cannot do there says
 * so in one line (remoteOnly) and never falls through to a local session.
 */
import type { Time } from '../../core/clock.js';
import { DisposableStore } from '../../core/lifetime.js';
import { TERMINATE_GRACE_MS } from '../../core/session-timings.js';
import { EXIT, UserError } from '../../state/errors.js';
import type { SessionView } from '../../state/host-store.js';
import type { RunnerConnection } from '../link/connection.js';
import { connectRemote } from './remote.js';
import type { KillOutcome } from '../session/session-actions.js';

/** A remote row's machine and id there; a local row is a bug here. */
export function remoteOf(s: SessionView): { host: string; id: string } {
  if (!s.host || !s.remoteId) throw new UserError(`${s.name} is not a remote session`, EXIT.failure);
  return { host: s.host, id: s.remoteId };
}

/** A connection to a remote row's runner, by its id there. */
export function connectRemoteRow(s: SessionView, client: string, time: Time, readOnly = false): Promise<RunnerConnection> {
  const { host, id } = remoteOf(s);
  return connectRemote(host, id, { client, readOnly, scheduler: time.scheduler });
}

/** `what` is not done on another machine from the board: one line saying what to type instead. */
export function remoteOnly(s: SessionView, what: string, command: string): UserError {
  const { host, id } = remoteOf(s);
  return new UserError(`${what} a session on ${host} is not done from the board; there: ssh ${host} agent-board ${command} ${id}`, EXIT.usage);
}

/** Ends a remote row's program as `kill` does: `terminate` to its runner, then its `exit`. */
export async function killRemote(s: SessionView, time: Time): Promise<KillOutcome> {
  if (s.status === 'exited') return { kind: 'already-exited' };
  const { host, id } = remoteOf(s);
  if (s.status === 'lost') throw new UserError(`${s.name} on ${host} is lost; there: ssh ${host} agent-board kill ${id}`, EXIT.sessionUnavailable);
  const conn = await connectRemoteRow(s, 'board-kill', time);
  const waiting = new DisposableStore();
  try {
    const r = await new Promise<KillOutcome | string>((resolve) => {
      waiting.add(time.scheduler.setTimeout(() => resolve(`${s.name} on ${host} did not exit; its runner may be stuck`), TERMINATE_GRACE_MS + 5000));
      waiting.add(
        conn.onMessage((m) => {
          if (m.type === 'exit') resolve({ kind: 'exit', code: m.code, signal: m.signal });
          else if (m.type === 'error') resolve(m.message);
        }),
      );
      waiting.add(conn.onClose((why) => resolve(`lost the link to ${host} before ${s.name} exited (${why?.message ?? 'closed'})`)));
      conn.send({ type: 'terminate' });
    });
    if (typeof r === 'string') throw new UserError(r, EXIT.failure);
    return r;
  } finally {
    waiting.dispose();
    conn.dispose();
  }
}
