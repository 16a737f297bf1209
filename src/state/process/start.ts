/**
 * Children started to live on, where runCommand (run.ts) runs one to its end:
 * - startChild: one whose stdio its owner reads and writes as it runs (ssh carrying a session's
 *   stream); the owner ends it with terminate() (terminate.ts);
 * - startDetached: one that outlives us: in a session of its own (setsid: no controlling
 *   terminal, its own process group, none of our terminal's signals), stdin and stdout on
 *   /dev/null, and unref'd, so our process exits without waiting for it (a session's runner,
 *   src/client/session/runner-spawn.ts; the board's --notify-cmd, src/client/feed/notify-command.ts).
 * Each throws only for arguments node refuses outright; a program that cannot start is the
 * child's `error` event (ENOENT).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface ChildStart {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** Started with its stdin, stdout and stderr as pipes. */
export function startChild(command: string, args: readonly string[], o: ChildStart = {}): ChildProcessByStdio<Writable, Readable, Readable> {
  return spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
}

export interface DetachedStart extends ChildStart {
  /** Where its stderr goes: a file's descriptor (the runner log), or nowhere. */
  stderr?: 'ignore' | number;
}

/** Started detached and unref'd; its `exit` (or `error`) is still told while we run. */
export function startDetached(command: string, args: readonly string[], o: DetachedStart = {}): ChildProcess {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'ignore', o.stderr ?? 'ignore'], cwd: o.cwd, env: o.env });
  child.unref();
  return child;
}
