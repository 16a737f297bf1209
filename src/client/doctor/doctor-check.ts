/** One line of `agent-board doctor`, and the bounded way its checks run other programs. */
import type { Scheduler } from '../../core/clock.js';
import { runCommand } from '../../state/process/run.js';

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
 * whole process group is ended (a program's own children would otherwise hold its output open),
 * with no grace: a tool asked a question has nothing to save.
 */
export async function runTool(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, scheduler: Scheduler, timeoutMs = TOOL_TIMEOUT_MS): Promise<ToolResult> {
  const r = await runCommand(cmd, args, { env, group: true, timeoutMs, graceMs: 0, scheduler, stdout: { limit: OUTPUT_LIMIT }, stderr: { limit: OUTPUT_LIMIT } });
  const out = { stdout: r.stdout, stderr: r.stderr };
  if (r.timedOut) return { ok: false, why: `no answer within ${timeoutMs / 1000} s`, ...out };
  if (r.error) return { ok: false, why: r.error.code === 'ENOENT' ? 'not found' : r.error.message, ...out };
  if (r.code === 0) return { ok: true, ...out };
  const first = r.stderr.trim().split('\n')[0] ?? '';
  return { ok: false, why: `${r.signal ? `killed by ${r.signal}` : `exit code ${r.code}`}${first ? `: ${first}` : ''}`, ...out };
}
