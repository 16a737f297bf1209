/**
 * A sandboxed session is started only where its sandbox can be made: `new`, `fork`, `restart` and
 * `revive` (the CLI's and the board's) ask before they make or end anything, and refuse with the
 * preflight's one line and exit code 17 (docs/cli.md). The runner asks again before it spawns.
 */
import type { Scheduler } from '../../core/clock.js';
import type { SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { EXIT, UserError } from '../../state/errors.js';
import { sandboxPreflight } from '../../state/sandbox/sandbox-preflight.js';

/** Resolves when the sandbox can be made here; throws the UserError that says why not (EXIT.cannotSandbox). */
export async function requireSandbox(setting: SandboxSetting, scheduler: Scheduler, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<void> {
  const pre = await sandboxPreflight(setting, env, scheduler, platform);
  if (!pre.ok) throw new UserError(pre.line, EXIT.cannotSandbox);
}
