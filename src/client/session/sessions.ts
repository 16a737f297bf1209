/**
 * A session as a command names it and reaches it: found by its id, name or a prefix, connected
 * to (or why not: exited, lost, unreachable), and how it ended, in words.
 */
import type { Time } from '../../core/clock.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { resolveSessionRef } from '../../core/session-ref.js';
import { EXIT, UserError } from '../../state/errors.js';
import { listSessions, type SessionView } from '../../state/host-store.js';
import { runnerLog, socketPath } from '../../state/paths.js';
import { RunnerConnection } from '../link/connection.js';

/** The session a user named, or a UserError that says why not. */
export function findSession(home: string, ref: string): SessionView {
  const r = resolveSessionRef(ref, listSessions(home));
  if (r.ok) return r.session;
  throw new UserError(r.message, r.reason === 'ambiguous' ? EXIT.ambiguousSession : EXIT.unknownSession);
}

/** Connect to a running session, with a clear error when it cannot be reached; `pipelined` goes with the hello (ConnectOptions.pipelined). */
export async function connectSession(home: string, s: SessionView, client: string, time: Time, readOnly = false, pipelined?: readonly ClientMessage[]): Promise<RunnerConnection> {
  if (s.status === 'lost') throw new UserError(`session ${s.name} is ${lostReason(s)}`, EXIT.sessionUnavailable);
  if (s.status === 'exited') {
    throw new UserError(`session ${s.name} has exited (${describeExit(s)})`, EXIT.sessionUnavailable);
  }
  try {
    return await RunnerConnection.open(socketPath(home, s.id), { client, readOnly, scheduler: time.scheduler, pipelined });
  } catch (err) {
    // Its runner runs but has written no heartbeat for 20 s and does not answer either: wedged, not a full disk.
    if (s.heartbeatStale) throw new UserError(`session ${s.name} is ${lostReason(s)}`, EXIT.sessionUnavailable);
    throw new UserError(`cannot reach session ${s.name}: ${(err as Error).message}; see ${runnerLog(home, s.id)}`, EXIT.sessionUnavailable);
  }
}

/**
 * Why a lost session is lost and what brings it back, after `<name> is`: `lost: its runner (pid
 * 12) is gone; bring it back with: agent-board revive api (or remove it: agent-board rm api)`.
 * A runner that still runs but does not answer (wedged) must be ended before a revive can
 * replace it: only then does the advice name kill, and only that runner.
 */
export function lostReason(s: Pick<SessionView, 'name' | 'runnerPid' | 'runnerAlive'>): string {
  if (s.runnerAlive && s.runnerPid) {
    return `lost: its runner (pid ${s.runnerPid}) still runs but does not answer; end it (kill ${s.runnerPid}), then bring the session back with: agent-board revive ${s.name}`;
  }
  return `lost: its runner${s.runnerPid ? ` (pid ${s.runnerPid})` : ''} is gone; bring it back with: agent-board revive ${s.name} (or remove it: agent-board rm ${s.name})`;
}

export function describeExit(s: Pick<HostRecord, 'exitCode' | 'exitSignal'>): string {
  return s.exitSignal ? `killed by ${s.exitSignal}` : `exit code ${s.exitCode ?? 'unknown'}`;
}

/**
 * How a program ended, in words: `killed (SIGHUP)` when a user asked for it (host.json `killed`:
 * `kill`, the board's x, `rm --force`, `restart`), else `exited (exit code 3)` or
 * `exited (killed by SIGSEGV)`, a signal nobody asked for.
 */
export function endedText(s: Pick<HostRecord, 'exitCode' | 'exitSignal' | 'killed'>): string {
  return s.killed ? `killed (${s.exitSignal ?? `exit code ${s.exitCode ?? 'unknown'}`})` : `exited (${describeExit(s)})`;
}
