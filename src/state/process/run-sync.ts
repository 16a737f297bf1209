/**
 * A command run to its end synchronously, for the CLI's short calls where nothing else has to
 * go on meanwhile (git's `rev-parse`): runCommand's result, without its timeout.
 */
import { spawnSync } from 'node:child_process';
import type { RunResult } from './run.js';

export interface RunSyncOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed. */
  input?: string;
  /** Bytes of each stream past which it is killed and `error` is ENOBUFS. */
  maxBuffer: number;
}

export function runCommandSync(command: string, args: readonly string[], o: RunSyncOptions): RunResult {
  const r = spawnSync(command, args, { cwd: o.cwd, env: o.env, input: o.input ?? '', encoding: 'utf8', maxBuffer: o.maxBuffer });
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', timedOut: false, error: r.error ?? null };
}
