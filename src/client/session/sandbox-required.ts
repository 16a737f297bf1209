/**
 * A sandboxed session is started only where its sandbox can be made: `new`, `fork`, `restart` and
 * `revive` (the CLI's and the board's) ask before they make or end anything, and refuse with the
 * preflight's one line and exit code 17 (docs/cli.md). The runner asks again before it spawns.
 */
import type { Scheduler } from '../../core/clock.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { EXIT, UserError } from '../../state/errors.js';
import { sandboxPreflight } from '../../state/sandbox/sandbox-preflight.js';

/**
 * Resolves when the sandbox can be made here; throws the UserError that says why not
 * (EXIT.cannotSandbox). `cwd`: the session's folder (the container backend's devcontainer.json).
 */
export async function requireSandbox(setting: SandboxSetting, cwd: string, scheduler: Scheduler, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<void> {
  const pre = await sandboxPreflight(setting, env, scheduler, platform, cwd);
  if (!pre.ok) throw new UserError(pre.line, EXIT.cannotSandbox);
}

/**
 * The line a runner left when it refused to spawn its program because the sandbox could not be
 * made after all (bubblewrap removed since the preflight, a reboot's revive): the record says
 * `exited` with no exit code or signal, its last line the refusal. null: it was not refused.
 */
export function sandboxRefusal(r: Pick<HostRecord, 'sandbox' | 'status' | 'exitCode' | 'exitSignal' | 'previewLine'>): string | null {
  if (!r.sandbox || r.status !== 'exited' || r.exitCode !== null || r.exitSignal !== null) return null;
  return r.previewLine?.startsWith('cannot sandbox') ? r.previewLine : null;
}
