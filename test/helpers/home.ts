import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'bin', 'agent-board');

/** A fresh private AGENT_BOARD_HOME for one test. */
export function makeHome(prefix = 'ab-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o700);
  return dir;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, AGENT_BOARD_HOME: home, ...extra };
}

/** Runs the real CLI (compiled) synchronously. */
export function cli(home: string, args: string[], opts: { input?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: cliEnv(home, opts.env),
    input: opts.input,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the real CLI without blocking the test's event loop. */
export function cliAsync(home: string, args: string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: cliEnv(home, opts.env), encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a session and returns its id; throws with the CLI's own message on failure. */
export function newSession(home: string, args: string[]): string {
  const r = cli(home, ['new', ...args]);
  if (r.code !== 0) throw new Error(`new failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

interface HostLike { runnerPid?: number | null; childPid?: number | null }

/** Kills every runner and child the home started, then removes it. */
export function destroyHome(home: string): void {
  const sessions = path.join(home, 'sessions');
  for (const id of fs.existsSync(sessions) ? fs.readdirSync(sessions) : []) {
    try {
      const rec = JSON.parse(fs.readFileSync(path.join(sessions, id, 'host.json'), 'utf8')) as HostLike;
      for (const pid of [rec.childPid ? -rec.childPid : null, rec.runnerPid]) {
        if (!pid) continue;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    } catch {
      // no host file
    }
  }
  fs.rmSync(home, { recursive: true, force: true });
}

export async function waitFor<T>(what: string, fn: () => T | undefined | null | false, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `agent-board peek` of a session: its screen lines, right-trimmed. */
export async function peekLines(home: string, name: string): Promise<string[]> {
  const r = await cliAsync(home, ['peek', name]);
  if (r.code !== 0) throw new Error(`peek ${name} failed (${r.code}): ${r.stderr}`);
  return r.stdout.replace(/\n$/, '').split('\n').map((l) => l.trimEnd());
}

/** Peeks until `pred` holds (10 s at most); returns the lines that satisfied it. */
export async function waitForPeekLines(home: string, name: string, what: string, pred: (lines: string[]) => boolean, everyMs = 50): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const last = await peekLines(home, name);
    if (pred(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for peek ${name} to show ${what}; last:\n${last.join('\n')}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
