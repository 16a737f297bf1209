/**
 * Sessions whose runner runs (its pid, boot and start time: src/state/host-store.ts) but whose
 * host.json heartbeat is stale (`heartbeatStale`) are asked on their socket before anyone calls
 * them lost (docs/architecture.md, "Liveness"). One that answers is alive: a full disk (its hello
 * says `cannotWrite`), and its hello's record, from its memory, is newer than the file. One that
 * does not answer is wedged: lost, and its runner must be ended before a revive replaces it.
 */
import type { Scheduler } from '../../core/clock.js';
import { asHostRecord, type SessionView } from '../../state/host-store.js';
import { socketPath } from '../../state/paths.js';
import { RunnerConnection } from '../link/connection.js';
import { findSession } from './sessions.js';

/** How long a silent runner has to answer its hello. */
export const SILENT_RUNNER_PROBE_MS = 1500;

/** Each silent runner of `views` asked (at once, in parallel); the others as they are. */
export function askSilentRunners(home: string, views: readonly SessionView[], scheduler: Scheduler): Promise<SessionView[]> {
  return Promise.all(views.map((v) => (v.heartbeatStale ? askSilentRunner(home, v, scheduler) : Promise.resolve(v))));
}

/** One silent runner asked: the session as its runner says it is, or lost when it does not answer. */
export async function askSilentRunner(home: string, v: SessionView, scheduler: Scheduler): Promise<SessionView> {
  let host: unknown;
  try {
    const conn = await RunnerConnection.open(socketPath(home, v.id), { client: 'liveness', readOnly: true, scheduler, timeoutMs: SILENT_RUNNER_PROBE_MS });
    host = conn.hello.host;
    conn.dispose();
  } catch {
    return { ...v, status: 'lost' }; // runs, writes nothing, answers nothing: wedged (runnerAlive stays: revive says to end it)
  }
  const rec = asHostRecord(host, v.id);
  // A runner that answers with a record we cannot read is still alive: the file's record, alive.
  const { heartbeatStale: _stale, ...file } = v;
  return rec ? { ...rec, runnerAlive: true } : file;
}

/** findSession, its runner asked when it is silent: for a command that acts on the status (rm, kill, restart). */
export async function findSessionAsked(home: string, ref: string, scheduler: Scheduler): Promise<SessionView> {
  const s = findSession(home, ref);
  return s.heartbeatStale ? askSilentRunner(home, s, scheduler) : s;
}
