/**
 * `doctor`'s sandbox check: whether this machine can put a session in an OS sandbox with
 * bubblewrap. `bwrap` on PATH, and one real sandbox made: new user, pid and network namespaces
 * over a read-only root, running `true`. Some kernels let only root make a user namespace
 * (`kernel.unprivileged_userns_clone=0`, or Ubuntu's AppArmor `restrict_unprivileged_userns`): bwrap
 * is there, and still no sandbox can be made. bubblewrap is Linux's; elsewhere the check says so.
 */
import type { Scheduler } from '../../core/clock.js';
import { findProgram } from '../../state/process/find-program.js';
import { runTool, type Check } from './doctor-check.js';

import { BWRAP_PROBE_ARGS as SANDBOX_PROBE_ARGS } from '../../state/sandbox/sandbox-preflight.js';

/** `platform`: the machine's (a test gives another, the check's fallback elsewhere than Linux). */
export async function sandboxCheck(env: NodeJS.ProcessEnv, scheduler: Scheduler, platform: NodeJS.Platform = process.platform): Promise<Check> {
  if (platform !== 'linux') return { check: 'sandbox', status: 'warn', message: `no sandbox on ${platform}: agent-board sandboxes with bubblewrap, which is Linux's` };
  const bwrap = findProgram('bwrap', { env });
  if (!bwrap) {
    return { check: 'sandbox', status: 'warn', message: 'bubblewrap (bwrap) is not installed: no session can be sandboxed here', fix: 'install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap)' };
  }
  const v = await runTool(bwrap, ['--version'], env, scheduler);
  const version = (v.ok ? v.stdout.trim().split('\n')[0] : '') || 'bwrap';
  const tried = await runTool(bwrap, SANDBOX_PROBE_ARGS, env, scheduler);
  if (tried.ok) {
    const made = `${version} (${bwrap}): a sandbox can be made here (user, pid and network namespaces)`;
    // --network allowlist carries the proxy into the sandbox with socat: without it only all and none work.
    const socat = findProgram('socat', { env });
    if (socat) return { check: 'sandbox', status: 'ok', message: `${made}; --network allowlist can work (socat: ${socat})` };
    return { check: 'sandbox', status: 'warn', message: `${made}, but --network allowlist cannot: socat is not installed (all and none can)`, fix: 'install socat (apt-get install socat, dnf install socat): it carries the proxy into the sandbox' };
  }
  const namespaces = /namespace/i.test(`${tried.why ?? ''} ${tried.stderr}`);
  return {
    check: 'sandbox',
    status: 'warn',
    message: `${version} (${bwrap}) cannot make a sandbox here: ${tried.why ?? 'it failed'}`,
    fix: namespaces
      ? 'this kernel lets only root make user namespaces: sysctl kernel.unprivileged_userns_clone=1 (Debian), or an AppArmor profile for bwrap where kernel.apparmor_restrict_unprivileged_userns=1 (Ubuntu)'
      : `run it by hand to see why: bwrap ${SANDBOX_PROBE_ARGS.join(' ')}`,
  };
}
