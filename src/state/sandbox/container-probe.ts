/**
 * Which container engine can run the session's container here, found by running one: `podman
 * run --rm ... true`, then docker's. Being installed says little: docker's client is often there
 * with no daemon, and podman may be unable to start any container in a VM (cgroups, rlimits). So
 * the answer is a real container started and ended, or one line saying what each engine said.
 */
import type { Scheduler } from '../../core/clock.js';
import type { ContainerEngine, ContainerRoot } from '../../core/sandbox/container-args.js';
import { findProgram } from '../process/find-program.js';
import { runCommand } from '../process/run.js';

/** The order engines are tried: podman first (rootless, no root daemon), docker second. */
export const CONTAINER_ENGINES: readonly ContainerEngine[] = ['podman', 'docker'];

/**
 * A container start takes a few hundred milliseconds (podman's ~0.3 s here, before it failed);
 * a machine under load or a cold engine (docker's daemon waking) gets this long.
 */
const PROBE_TIMEOUT_MS = 30_000;

export type ContainerProbe = { ok: true; engine: ContainerEngine; program: string } | { ok: false; line: string };

/** `<engine> run` of `true` in the root, without pulling (a pull is minutes; the line says to pull first) and without network. */
export function probeArgs(root: ContainerRoot, needs: readonly string[] = []): string[] {
  const where = 'rootfs' in root ? ['--rootfs', root.rootfs] : [root.image];
  if (needs.length === 0) return ['run', '--rm', '--pull=never', '--network=none', ...where, 'true'];
  // The programs the session runs inside besides its own (socat for the proxy's bridge), each looked for in the image.
  const check = `for p in ${needs.join(' ')}; do command -v "$p" >/dev/null || { echo "$p is not in the image" >&2; exit 1; }; done`;
  return ['run', '--rm', '--pull=never', '--network=none', ...where, 'sh', '-c', check];
}

const rootText = (root: ContainerRoot) => ('rootfs' in root ? `the folder ${root.rootfs}` : root.image);

/** The first line an engine said, its own "Error: " prefix off. */
function firstLine(stderr: string, fallback: string): string {
  const line = stderr.split('\n').map((l) => l.trim()).find(Boolean);
  return line ? line.replace(/^(Error|docker):\s*/i, '') : fallback;
}

export interface ProbeOptions {
  /** Programs the image must have (on its PATH); none: `true` is run. */
  needs?: readonly string[];
  /** The engines tried, in order (CONTAINER_ENGINES unless given). */
  engines?: readonly ContainerEngine[];
}

/** The first engine (podman, docker) that runs a container of `root` here; else why not, in one line. */
export async function probeContainer(root: ContainerRoot, env: NodeJS.ProcessEnv, scheduler: Scheduler, o: ProbeOptions = {}): Promise<ContainerProbe> {
  const engines = o.engines ?? CONTAINER_ENGINES;
  const why: string[] = [];
  for (const engine of engines) {
    const program = findProgram(engine, { env });
    if (!program) continue;
    if ('rootfs' in root && engine !== 'podman') {
      why.push(`${engine} runs images only, not a folder`);
      continue;
    }
    const r = await runCommand(program, probeArgs(root, o.needs), { env, timeoutMs: PROBE_TIMEOUT_MS, graceMs: 0, scheduler, group: true });
    if (r.code === 0) return { ok: true, engine, program };
    const said = r.timedOut ? `no answer in ${PROBE_TIMEOUT_MS / 1000} s` : r.error ? r.error.message : firstLine(r.stderr, `exit code ${r.code}`);
    const missing = /image not known|no such image|unable to find image/i.test(said) ? ` (pull it first: ${engine} pull ${rootText(root)})` : '';
    why.push(`${engine} cannot run ${rootText(root)} here: ${said}${missing}`);
  }
  if (why.length === 0) {
    const none = engines.length === 1 ? `${engines[0]} is not installed` : `neither ${engines.join(' nor ')} is installed`;
    return { ok: false, line: `cannot sandbox in a container: ${none} (apt-get install podman), or use --sandbox (bubblewrap)` };
  }
  return { ok: false, line: `cannot sandbox in a container: ${why.join('; ')}` };
}
