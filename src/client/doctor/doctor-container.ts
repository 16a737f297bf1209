/**
 * `doctor`'s container check: whether `--sandbox container` can work here, found by running
 * something, not by finding a program (docker's client is often there with no daemon; podman may
 * be unable to start any container in a VM): podman runs this machine's own root as a container
 * (src/state/sandbox/container-probe.ts, no image to pull), docker's daemon is asked for its
 * version (a container needs an image, which the session names or its devcontainer.json picks).
 * The backend is optional: no engine at all is not a warning, one that cannot run is.
 */
import type { Scheduler } from '../../core/clock.js';
import { probeContainer } from '../../state/sandbox/container-probe.js';
import { findProgram } from '../../state/process/find-program.js';
import { runTool, type Check } from './doctor-check.js';

export async function containerCheck(env: NodeJS.ProcessEnv, scheduler: Scheduler): Promise<Check> {
  const podman = findProgram('podman', { env });
  const docker = findProgram('docker', { env });
  if (!podman && !docker) return { check: 'container', status: 'ok', message: 'neither podman nor docker is installed: no --sandbox container here (bubblewrap sandboxes need neither)' };
  const why: string[] = [];
  if (podman) {
    const p = await probeContainer({ rootfs: '/' }, env, scheduler, { engines: ['podman'] });
    if (p.ok) return { check: 'container', status: 'ok', message: `podman (${podman}) runs a container here: --sandbox container can work` };
    why.push(p.line.replace(/^cannot sandbox in a container: /, ''));
  }
  if (docker) {
    const d = await runTool(docker, ['version', '--format', '{{.Server.Version}}'], env, scheduler);
    if (d.ok) return { check: 'container', status: 'ok', message: `docker (${docker}) has a daemon (${d.stdout.trim()}): --sandbox container can work with an image` };
    why.push(`docker's daemon does not answer: ${d.why ?? 'it failed'}`);
  }
  return { check: 'container', status: 'warn', message: `--sandbox container cannot work here: ${why.join('; ')}`, fix: 'start docker\'s daemon, or let podman run containers for this user (its error says what stops it); --sandbox (bubblewrap) needs neither' };
}
