/** The process module's tests' children (test/fixtures/programs/process-child.mjs), started and waited for. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PROCESS_CHILD = path.resolve('test/fixtures/programs/process-child.mjs');

/** A real-time pause, for what only real time can show (a signal delivered, or not acted on). */
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the child in `mode` and resolves once it said "ready" (its signal handlers are in place). */
export async function readyChild(mode: 'stubborn' | 'polite'): Promise<ChildProcess> {
  const child = spawn(process.execPath, [PROCESS_CHILD, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (s: string) => {
      out += s;
      if (out.includes('ready\n')) resolve();
    });
    child.once('exit', () => reject(new Error(`process-child ${mode} exited before it was ready: ${out}`)));
  });
  return child;
}

/**
 * Whether `pid` is there and running: a zombie is not (a grandchild whose parent died waits for
 * init to reap it, and some inits, this machine's among them, never do).
 */
export function there(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false; // gone meanwhile
  }
}

/** Polls `ok` in real time until it holds, for at most `ms` (generous: a loaded 2-core machine). */
export async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await pause(10);
  }
}

/** SIGKILL for a test's leftover child (one a test meant to leave running). */
export function cleanUp(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** An environment whose child writes its ready line to a file (READY_FILE), and a wait for that line. */
export function readyFile(): { env: NodeJS.ProcessEnv; ready: () => Promise<string> } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-ready-')), 'ready');
  return {
    env: { ...process.env, READY_FILE: file },
    ready: async () => {
      await until(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').endsWith('\n'));
      const line = fs.readFileSync(file, 'utf8');
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      return line;
    },
  };
}
