/**
 * A container-sandboxed session's launch (docs/sandbox.md, "Container backend"): the engine's
 * command node-pty spawns in place of the program, with the same parts as the bubblewrap launch
 * (sandbox-launch.ts) made ready by the runner: the git pieces, the kind's state folder, the
 * room folder, the proxy for `--network allowlist`. The program's environment goes to the engine
 * process and, by name only, into the container: no value is in an argv `ps` shows. The engine
 * keeps what it needs of the host's (PATH, rootless podman's XDG_RUNTIME_DIR); those names are not
 * passed in.
 */
import fs from 'node:fs';
import { containerArgs, containerEnv } from '../../core/sandbox/container-args.js';
import { containerMounts, type ContainerPlaces, type PathKind } from '../../core/sandbox/container-mounts.js';
import type { SandboxNetwork } from '../../core/sandbox/sandbox-types.js';
import type { ContainerReady } from '../../state/sandbox/container-preflight.js';

export interface ContainerLaunchOptions {
  /** The preflight's answer: the engine that ran the image here. */
  ready: ContainerReady;
  sessionId: string;
  places: Omit<ContainerPlaces, 'proxySocket'>;
  userHome: string;
  uid: number;
  gid: number;
  network: SandboxNetwork;
  /** The program's environment as the sandbox wants it (git's object dirs, CLAUDE_CONFIG_DIR, the proxy's). */
  env: Readonly<Record<string, string | undefined>>;
  /** `--network allowlist`: the proxy's socket and its bridge (run inside before the program). */
  proxy: { socketPath: string; bridge: readonly string[] } | null;
  command: string;
  args: readonly string[];
}

export interface ContainerLaunch {
  command: string;
  args: string[];
  /** The engine's environment: the program's, HOME set; the container gets the names the args list. */
  env: Record<string, string>;
  /** The container's name: `<engine> rm --force <name>` ends it if the engine's client died first. */
  name: string;
}

export type ContainerLaunched = { ok: true; launch: ContainerLaunch } | { ok: false; line: string };

/** The name a session's container has: one per session, so a leftover is found by it. */
export const containerName = (sessionId: string) => `agent-board-${sessionId}`;

/** What the runner runs to end a container whose engine client it lost (a SIGKILL of the group). */
export function removeContainerArgs(name: string): string[] {
  return ['rm', '--force', name];
}

function pathKind(p: string): PathKind {
  try {
    return fs.statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

export function containerLaunch(o: ContainerLaunchOptions): ContainerLaunched {
  const inside = containerEnv(o.env, o.userHome);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, inside);
  const name = containerName(o.sessionId);
  const mounts = containerMounts({ ...o.places, proxySocket: o.proxy?.socketPath ?? null }, pathKind);
  const r = containerArgs({
    engine: o.ready.engine,
    uid: o.uid,
    gid: o.gid,
    root: o.ready.root,
    name,
    cwd: o.places.cwd,
    home: o.userHome,
    mounts,
    envNames: Object.keys(inside),
    network: o.network,
    command: [...(o.proxy?.bridge ?? []), o.command, ...o.args],
  });
  if (!r.ok) return r;
  return { ok: true, launch: { command: o.ready.program, args: r.args, env, name } };
}
