import type { Scheduler } from '../../core/clock.js';
import { NONE, type Disposable } from '../../core/lifetime.js';
import { EXIT, UserError } from '../../state/errors.js';
import { asHostRecord, type SessionView } from '../../state/host-store.js';
import { startChild } from '../../state/process/start.js';
import { runCommand, type RunResult } from '../../state/process/run.js';
import { terminate } from '../../state/process/terminate.js';
import { RunnerConnection, type ConnectOptions } from '../link/connection.js';
import { childEnd, lastLine, remoteFailure, SSH_STDERR_KEEP, sshArgv, stderrTail, type ChildEnd } from './ssh.js';

export { RemoteError } from './ssh.js';

/**
 * Sessions on another machine. ssh is the transport and the authentication:
 * `ssh box agent-board bridge <session>` joins our stdio to the session's unix
 * socket there, and the protocol runs over it unchanged. Nothing of ours
 * listens on the network.
 */

/** Over ssh a hello takes a TCP and ssh handshake plus a node start on the other side. */
export const REMOTE_HELLO_TIMEOUT_MS = 20_000;
/** After a failed hello, how long ssh may take to exit and say why. */
const SSH_END_GRACE_MS = 2000;
/** `ls --host` gives up after this long. */
const LIST_TIMEOUT_MS = 30_000;

export interface RemoteHost {
  /** What ssh gets as its destination: `user@box`, `box`, or a Host alias of ~/.ssh/config. */
  target: string;
  user: string | null;
  host: string;
}

/** `[user@]host`; refuses what ssh would read as an option or what could not be a host. */
export function parseHost(spec: string): RemoteHost {
  const at = spec.lastIndexOf('@');
  const user = at >= 0 ? spec.slice(0, at) : null;
  const host = spec.slice(at + 1);
  if (!host || user === '' || spec.startsWith('-') || /[\s\x00-\x1f\x7f]/.test(spec)) {
    throw new UserError(`invalid --host "${spec}": use host or user@host`, EXIT.usage);
  }
  return { target: spec, user, host };
}

/**
 * A connection to session `ref` on `host`, through `ssh host agent-board
 * bridge ref`. Destroying the connection kills ssh. When ssh or the bridge
 * gives up first, the error says why with the exit code the remote gave
 * (3 no such session, 4 ambiguous, 5 unreachable or exited).
 */
export async function connectRemote(host: string, ref: string, opts: ConnectOptions): Promise<RunnerConnection> {
  const { target } = parseHost(host);
  const { ChildStream } = await import('./ssh-stream.js');
  const child = startChild('ssh', sshArgv(target, ['bridge', ref]));
  const tail = stderrTail(child);
  const ended = childEnd(child);
  try {
    return await RunnerConnection.over(new ChildStream(child, opts.scheduler), { ...opts, timeoutMs: opts.timeoutMs ?? REMOTE_HELLO_TIMEOUT_MS });
  } catch (err) {
    // ssh closed its output: its exit code and last stderr line follow within moments.
    let grace: Disposable = NONE;
    const end = await Promise.race([ended, new Promise<null>((r) => (grace = opts.scheduler.setTimeout(() => r(null), SSH_END_GRACE_MS)))]);
    grace.dispose();
    // Ends itself with ssh (most often gone already): nothing to hold.
    terminate(child, { scheduler: opts.scheduler });
    throw remoteFailure(host, end, tail(), `the session did not answer over ssh (${(err as Error).message})`);
  }
}

/** The sessions on `host`, as `agent-board ls --json` there reports them. */
export async function listRemote(host: string, scheduler: Scheduler): Promise<SessionView[]> {
  const { target } = parseHost(host);
  const r = await runCommand('ssh', sshArgv(target, ['ls', '--json']), { scheduler, timeoutMs: LIST_TIMEOUT_MS, stderr: SSH_STDERR_KEEP });
  if (r.code !== 0) throw remoteFailure(host, endOf(r), lastLine(r.stderr), `ls did not finish within ${LIST_TIMEOUT_MS / 1000} s`);
  const sessions = parseList(r.stdout);
  if (!sessions) throw new UserError(`${host}: agent-board ls --json printed something else than a session list`, EXIT.failure);
  return sessions;
}

/** The JSON array `ls --json` prints; a login banner before it is skipped. */
function parseList(out: string): SessionView[] | null {
  const start = out.search(/^\[/m);
  if (start < 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(out.slice(start));
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  const sessions: SessionView[] = [];
  for (const v of value) {
    const rec = asHostRecord(v);
    if (rec) sessions.push({ ...rec, runnerAlive: (v as { runnerAlive?: unknown }).runnerAlive === true });
  }
  return sessions;
}

/** How long one short command over ssh (a chat read or post) may take. */
export const REMOTE_RUN_TIMEOUT_MS = 20_000;

/** `agent-board args...` on `host`, `input` on its stdin; resolves with its stdout (when its exit code is one of `okCodes`), rejects with the one line it or ssh gave. */
export async function runRemote(host: string, args: string[], scheduler: Scheduler, input = '', okCodes: readonly number[] = [0]): Promise<string> {
  const { target } = parseHost(host);
  const r = await runCommand('ssh', sshArgv(target, args), { input, scheduler, timeoutMs: REMOTE_RUN_TIMEOUT_MS, stderr: SSH_STDERR_KEEP });
  if (r.code === null || !okCodes.includes(r.code)) throw remoteFailure(host, endOf(r), lastLine(r.stderr), `agent-board ${args[0] ?? ''} did not finish within ${REMOTE_RUN_TIMEOUT_MS / 1000} s`);
  return r.stdout;
}

/** How ssh ended, as remoteFailure reads it: one we ended for its time is told as such, whatever ssh made of the signal. */
function endOf(r: RunResult): ChildEnd | null {
  if (r.timedOut) return null;
  return r.error ? { code: r.code, error: r.error } : { code: r.code };
}
