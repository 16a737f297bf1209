import type { ChildProcess } from 'node:child_process';
import { EXIT, UserError, type ExitCode } from '../../state/errors.js';

/**
 * The ssh plumbing under src/client/remote/remote.ts: the argv, how the child ended,
 * and the error a failed ssh (or remote agent-board) becomes. The child's stdio
 * as one stream is ./ssh-stream.ts, loaded only when a connection is made.
 */

/** How long ssh may take to open the TCP connection: a dead host fails in seconds, not minutes. */
const CONNECT_TIMEOUT_S = 10;

/**
 * `ssh [opts] -- target 'agent-board arg...'`. BatchMode: we have no terminal
 * to ask for a password on. -T: no remote PTY, so bytes pass untouched. The
 * user's AGENT_BOARD_SSH_OPTS come before our defaults because ssh keeps the
 * first value it sees for an option. The keepalive makes a dead link end ssh
 * (so an attach reconnects) instead of hanging forever.
 */
export function sshArgv(target: string, remoteArgs: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (env.AGENT_BOARD_SSH_OPTS ?? '').split(/\s+/).filter(Boolean);
  const program = env.AGENT_BOARD_REMOTE_COMMAND?.trim() || 'agent-board';
  const command = [program, ...remoteArgs.map(shellQuote)].join(' ');
  return [
    '-o', 'BatchMode=yes', '-T', ...extra,
    '-o', `ConnectTimeout=${CONNECT_TIMEOUT_S}`, '-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3',
    '--', target, command,
  ];
}

/** sshd hands the command to the remote login shell: quote every argument for a POSIX shell. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9._@%+=:,/-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export interface ChildEnd {
  code: number | null;
  error?: Error;
}

/** Resolves when the child is gone (or could not start), with its exit code. */
export function childEnd(child: ChildProcess): Promise<ChildEnd> {
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
}

/** What is kept of ssh's stderr: its end, where the line that says why it failed is. */
export const SSH_STDERR_KEEP = { limit: 4096, keep: 'end' } as const;

/** Keeps the end of a child's stderr; the returned function gives its last meaningful line. */
export function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => {
    tail = (tail + s).slice(-SSH_STDERR_KEEP.limit);
  });
  return () => lastLine(tail);
}

/** The last meaningful line of what ssh, or agent-board over there, wrote on stderr. */
export function lastLine(stderr: string): string {
  return (
    stderr
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('(add --help')) // an older agent-board's commander hint says nothing about the failure
      .pop() ?? ''
  );
}

/** Every exit code of docs/cli.md: the remote agent-board's own is passed on as it is. */
const KNOWN_CODES: ReadonlySet<number> = new Set(Object.values(EXIT));

/** A failure reported by ssh or the remote agent-board; sshFailed when ssh itself could not get through. */
export class RemoteError extends UserError {
  constructor(message: string, exitCode: ExitCode, readonly sshFailed: boolean) {
    super(message, exitCode);
  }
}

/** What the user is told when ssh, or agent-board on the other side, ended before doing its job. */
export function remoteFailure(host: string, end: ChildEnd | null, line: string, fallback: string): RemoteError {
  const unavailable = EXIT.sessionUnavailable;
  if (end?.error) return new RemoteError(`cannot run ssh: ${end.error.message}`, unavailable, true);
  const code = end?.code ?? null;
  if (code === null) return new RemoteError(`${host}: ${fallback}`, unavailable, true);
  if (code === 255) return new RemoteError(`cannot reach ${host} over ssh: ${line || 'ssh failed'}`, unavailable, true);
  // agent-board's own errors: one line, prefixed, with an exit code of docs/cli.md.
  if (code !== 0 && KNOWN_CODES.has(code) && line.startsWith('agent-board: ')) {
    // Its hints name local commands; over there they need the --host too, or ssh for those without one.
    const message = line
      .slice('agent-board: '.length)
      .replace(/(agent-board (?:ls|peek|attach|send|explain))(?=\s|$)/g, `$1 --host ${host}`)
      .replace(/(?<!ssh \S+ )(agent-board (?:revive|rm|restart|kill|rename)\b)/g, `ssh ${host} $1`);
    return new RemoteError(`${host}: ${message}`, code as ExitCode, false);
  }
  if (code === 0) return new RemoteError(`${host}: the session closed the connection`, unavailable, false);
  return new RemoteError(`agent-board on ${host} failed (exit ${code})${line ? `: ${line}` : ''}`, unavailable, false);
}
