/**
 * Whether this machine can make the sandbox a session asks for, said in one line when it cannot:
 * what `new`, `fork`, `restart` and `revive` check before they start anything (exit code 17,
 * EXIT.cannotSandbox) and what the runner checks again before it spawns the program, so a
 * sandboxed session never runs unsandboxed. bubblewrap is Linux's: elsewhere the answer is no.
 * The one real sandbox made here is the same `doctor` makes (src/client/doctor/doctor-sandbox.ts).
 */
import type { Scheduler } from '../../core/clock.js';
import type { SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { findProgram } from '../process/find-program.js';
import { runCommand } from '../process/run.js';
import { containerPreflight, type ContainerReady } from './container-preflight.js';

/**
 * The least a sandboxed session needs: new user (with no nested ones: `--disable-userns`, bwrap
 * 0.8), pid and network namespaces over a read-only root. A kernel that refuses user namespaces to
 * users, or an AppArmor profile that does, fails here as it would for the session.
 */
export const BWRAP_PROBE_ARGS: readonly string[] = ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'];

/** bwrap's version and the probe take milliseconds; a machine under load gets this long. */
const PROBE_TIMEOUT_MS = 10_000;

export type SandboxPreflight =
  | { ok: true; bwrap: string; version: string; socat: string | null }
  | { ok: true; container: ContainerReady }
  | { ok: false; line: string };

/**
 * `platform`: the machine's (a test gives another: the answer off Linux). `cwd`: the session's
 * folder, where the container backend looks for a devcontainer.json when no image is named.
 */
export async function sandboxPreflight(setting: SandboxSetting, env: NodeJS.ProcessEnv, scheduler: Scheduler, platform: NodeJS.Platform = process.platform, cwd?: string): Promise<SandboxPreflight> {
  if (setting.backend === 'container') return containerPreflight(setting, env, scheduler, cwd);
  if (platform !== 'linux') return { ok: false, line: `cannot sandbox on ${platform}: agent-board sandboxes with bubblewrap, which is Linux's` };
  const bwrap = findProgram('bwrap', { env });
  if (!bwrap) return { ok: false, line: 'cannot sandbox: bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)' };
  const v = await runCommand(bwrap, ['--version'], { env, timeoutMs: PROBE_TIMEOUT_MS, graceMs: 0, scheduler, group: true });
  const version = v.stdout.trim().split('\n')[0] || 'bwrap';
  const probe = await runCommand(bwrap, BWRAP_PROBE_ARGS, { env, timeoutMs: PROBE_TIMEOUT_MS, graceMs: 0, scheduler, group: true });
  if (probe.code !== 0) {
    const first = probe.stderr.trim().split('\n')[0] || (probe.timedOut ? 'no answer in time' : probe.error ? probe.error.message : `exit code ${probe.code}`);
    return { ok: false, line: `cannot sandbox: ${version} cannot make a sandbox here: ${first} (agent-board doctor says more)` };
  }
  const socat = findProgram('socat', { env });
  if (setting.network === 'allowlist' && !socat) {
    return { ok: false, line: 'cannot sandbox with --network allowlist: socat is not installed (it carries the proxy into the sandbox; apt-get install socat), or pick --network all or none' };
  }
  return { ok: true, bwrap, version, socat };
}
