/** One line of `agent-board doctor`, and the bounded way its checks run other programs. */
import { execFile } from 'node:child_process';

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

export interface ToolResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Why it failed: not found, timed out, exit code N and its first line of stderr. */
  why?: string;
}

/** Runs `cmd args`, never longer than `timeoutMs` (then SIGKILL), never throwing. */
export function runTool(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = TOOL_TIMEOUT_MS): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, stdout, stderr });
      const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
      const first = stderr.trim().split('\n')[0] ?? '';
      const why = e.code === 'ENOENT' ? 'not found' : e.killed ? `no answer within ${timeoutMs / 1000} s` : `exit code ${String(e.code)}${first ? `: ${first}` : ''}`;
      resolve({ ok: false, stdout, stderr, why });
    });
  });
}
