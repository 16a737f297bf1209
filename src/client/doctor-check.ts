/** One line of `agent-board doctor`, and the bounded way its checks run other programs. */
import { spawn } from 'node:child_process';
import type { Scheduler } from '../core/clock.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  /** What was looked at: home, bundle, config, logout, reboot, claude, ... */
  check: string;
  status: CheckStatus;
  message: string;
  /** What to do about a warn or a fail. */
  fix?: string;
}

/** How long doctor lets loginctl or systemctl answer before it says so and moves on. */
export const TOOL_TIMEOUT_MS = 5000;
/** An agent's --version: Gemini CLI, a large Node program, took 6 s on a loaded 2-core machine (2 s of CPU). */
export const VERSION_TIMEOUT_MS = 15_000;
/** What doctor keeps of a program's output: a version line or a few properties. */
const OUTPUT_LIMIT = 64 * 1024;

export interface ToolResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Why it failed: not found, no answer in time, exit code N and its first line of stderr. */
  why?: string;
}

/**
 * Runs `cmd args` with stdin closed, never throwing and never longer than `timeoutMs`: then its
 * whole process group is killed (a program's own children would otherwise hold its output open).
 */
export function runTool(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, scheduler: Scheduler, timeoutMs = TOOL_TIMEOUT_MS): Promise<ToolResult> {
  return new Promise((resolve) => {
    const out = { stdout: '', stderr: '' };
    let settled = false;
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const finish = (r: { ok: boolean; why?: string }) => {
      if (settled) return;
      settled = true;
      timer.dispose();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ ...r, ...out });
    };
    const timer = scheduler.setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone: its exit is on the way
      }
      finish({ ok: false, why: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    child.stdout?.on('data', (b: Buffer) => (out.stdout = (out.stdout + b.toString('utf8')).slice(0, OUTPUT_LIMIT)));
    child.stderr?.on('data', (b: Buffer) => (out.stderr = (out.stderr + b.toString('utf8')).slice(0, OUTPUT_LIMIT)));
    child.on('error', (e: NodeJS.ErrnoException) => finish({ ok: false, why: e.code === 'ENOENT' ? 'not found' : e.message }));
    // 'close': the output is all read. A child left behind holding it open is the timer's to end.
    child.on('close', (code, signal) => {
      const first = out.stderr.trim().split('\n')[0] ?? '';
      if (code === 0) finish({ ok: true });
      else finish({ ok: false, why: `${signal ? `killed by ${signal}` : `exit code ${code}`}${first ? `: ${first}` : ''}` });
    });
  });
}
