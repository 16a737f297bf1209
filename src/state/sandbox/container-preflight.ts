/**
 * The container backend's half of the sandbox preflight (sandbox-preflight.ts): which image
 * (`--sandbox container:IMAGE`, else the repository's devcontainer.json), and an engine that
 * really runs it here. A folder path in place of an image (`container:/srv/rootfs`) is a root
 * folder for podman's `--rootfs`. What cannot be is said in one line; nothing is started.
 */
import type { Scheduler } from '../../core/clock.js';
import type { ContainerEngine, ContainerRoot } from '../../core/sandbox/container-args.js';
import type { SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { probeContainer } from './container-probe.js';
import { devcontainerImage } from './devcontainer.js';

export interface ContainerReady {
  engine: ContainerEngine;
  /** The engine's program file. */
  program: string;
  root: ContainerRoot;
  /** Where the image came from: `--sandbox container:IMAGE`, or the devcontainer file's path. */
  from: string;
}

export type ContainerPreflight = { ok: true; container: ContainerReady } | { ok: false; line: string };

/** What `image` names: a root folder when it is an absolute path, else an image. */
export function containerRoot(image: string): ContainerRoot {
  return image.startsWith('/') ? { rootfs: image } : { image };
}

/** The image the session runs in: the setting's, else the devcontainer file's nearest `cwd`. */
export function pickImage(setting: SandboxSetting, cwd: string | undefined): { ok: true; root: ContainerRoot; from: string } | { ok: false; line: string } {
  if (setting.image) return { ok: true, root: containerRoot(setting.image), from: '--sandbox container:IMAGE' };
  const dc = cwd === undefined ? ({ found: 'none' } as const) : devcontainerImage(cwd);
  if (dc.found === 'image') return { ok: true, root: containerRoot(dc.image), from: dc.file };
  if (dc.found === 'unusable') return { ok: false, line: `cannot sandbox in a container: ${dc.line}` };
  return { ok: false, line: 'cannot sandbox in a container: no image: name one (--sandbox container:IMAGE) or put a devcontainer.json with "image" in the repository' };
}

/** `cwd`: the session's folder, where a devcontainer.json is looked for when the setting names no image. */
export async function containerPreflight(setting: SandboxSetting, env: NodeJS.ProcessEnv, scheduler: Scheduler, cwd?: string): Promise<ContainerPreflight> {
  const picked = pickImage(setting, cwd);
  if (!picked.ok) return picked;
  // An allowlisted session reaches out only through the proxy's bridge, which runs socat inside.
  const probe = await probeContainer(picked.root, env, scheduler, { needs: setting.network === 'allowlist' ? ['socat'] : [] });
  if (!probe.ok) return probe;
  return { ok: true, container: { engine: probe.engine, program: probe.program, root: picked.root, from: picked.from } };
}
