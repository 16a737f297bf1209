/**
 * The container backend's argv (`new --sandbox container[:IMAGE]`, docs/sandbox.md "Container
 * backend"): `podman run` or `docker run` for one session, the program inside, the runner outside.
 * Every host path is mounted at the same path, so the worktree, the kind's state folder, the
 * session's own folder and its socket are where hooks, diff, merge and the transcripts (keyed by
 * cwd) expect them. Nothing else of the host is there: the image is the root.
 */
import type { SandboxNetwork } from './sandbox-types.js';

export type ContainerEngine = 'podman' | 'docker';

/**
 * A host path made visible inside, at the same path. `hide` covers a path under another mount:
 * an empty tmpfs for a folder, /dev/null for a file (a folder or a file: the caller looked).
 */
export type ContainerMount = { kind: 'rw' | 'ro'; path: string } | { kind: 'hide'; path: string; dir: boolean };

/** What the container's root is: an image, or (podman only) a folder of the host used as the root. */
export type ContainerRoot = { image: string } | { rootfs: string };

export interface ContainerRun {
  engine: ContainerEngine;
  /** The runner's uid and gid: files the program writes in the worktree stay the user's. */
  uid: number;
  gid: number;
  root: ContainerRoot;
  /** The container's name (the runner removes it by name if its engine client dies before it). */
  name: string;
  cwd: string;
  /** HOME inside: the user's home path, an empty private folder there with the mounts under it. */
  home: string;
  mounts: readonly ContainerMount[];
  /**
   * The variables the program gets, by name only: the engine takes each value from its own
   * environment (`--env NAME`), so an API key never shows in the argv `ps` prints.
   */
  envNames: readonly string[];
  network: SandboxNetwork;
  /** The program and its arguments (for `allowlist`, the proxy's bridge before them). */
  command: readonly string[];
}

export type ContainerArgs = { ok: true; args: string[] } | { ok: false; line: string };

/**
 * Variables that name things of the host the container does not have, or that would let the
 * program out: agents (ssh, gpg) and the session bus (the contract's env drop), the host's PATH
 * (the image has its own programs in its own places), HOME (set to `home`), the runtime folder
 * and display sockets (not mounted), the host's TMPDIR (not mounted: the container has its own /tmp),
 * and the host shell's own bookkeeping (PWD would name the runner's folder, not `-w`'s).
 */
export const HOST_ONLY_ENV: readonly string[] = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'PATH',
  'HOME',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'TMPDIR',
  'HOSTNAME',
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
];

/**
 * The session's environment as the engine's own: the host-only names dropped, HOME set. The
 * engine process gets this env; the argv names the same variables (`envNames`).
 */
export function containerEnv(env: Readonly<Record<string, string | undefined>>, home: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !HOST_ONLY_ENV.includes(k)) out[k] = v;
  out.HOME = home;
  return out;
}

/**
 * `-v SRC:DST:ro` and `--mount type=tmpfs,destination=DST` split on `:` and `,`: a path holding
 * one cannot be said to either engine. Relative paths would be the engine's guess.
 */
function unsayable(p: string): string | null {
  if (!p.startsWith('/')) return `${p} is not an absolute path`;
  if (/[:,\n]/.test(p)) return `${p} holds a ':' or ',' (podman and docker split mount options on them)`;
  return null;
}

const depth = (p: string) => p.split('/').filter(Boolean).length;

/** Folders before what is under them (a hidden folder can have a child mounted back), stable otherwise. */
function byDepth(mounts: readonly ContainerMount[]): ContainerMount[] {
  return mounts
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i)
    .map((x) => x.m);
}

/**
 * The engine's network for a session's: `all` is the host's own network (as bwrap's: the host's
 * loopback services too), `none` and `allowlist` an own namespace with only a loopback; an
 * allowlisted session's only way out is the proxy's Unix socket, mounted in, and the bridge in
 * `command` (the image needs socat for it).
 */
export function containerNetwork(network: SandboxNetwork): 'host' | 'none' {
  return network === 'all' ? 'host' : 'none';
}

/** `run` and its options, the image (or `--rootfs`), then the command. */
export function containerArgs(r: ContainerRun): ContainerArgs {
  const paths = [r.cwd, r.home, ...r.mounts.map((m) => m.path), ...('rootfs' in r.root ? [r.root.rootfs] : [])];
  for (const p of paths) {
    const why = unsayable(p);
    if (why) return { ok: false, line: `cannot sandbox in a container: ${why}` };
  }
  if ('rootfs' in r.root && r.engine !== 'podman') return { ok: false, line: 'cannot sandbox in a container: only podman runs a folder as the root (--rootfs); docker needs an image' };
  if (r.command.length === 0) return { ok: false, line: 'cannot sandbox in a container: no program to run' };

  // --init: a small pid 1 that reaps the program's orphans and passes signals on (the program is
  // not pid 1, which ignores SIGTERM and SIGINT it has no handler for). -i -t: the runner's PTY is
  // the container's terminal; the engine passes on its size and SIGWINCH.
  const args = ['run', '--rm', '-i', '-t', '--init', '--name', r.name];
  if (r.engine === 'podman') {
    // An empty sequence turns off podman's Ctrl-P Ctrl-Q detach, which would hold back a Ctrl-P the agent is meant to get.
    args.push('--detach-keys=');
    // Rootless podman: the user's own uid inside is theirs outside. Root's podman runs as root already.
    if (r.uid !== 0) args.push('--userns=keep-id');
  } else {
    // docker's daemon is root: without --user the program would write root's files into the worktree.
    args.push('--user', `${r.uid}:${r.gid}`);
  }
  args.push('--cap-drop=all', '--security-opt=no-new-privileges', `--network=${containerNetwork(r.network)}`);

  const mounts = byDepth(r.mounts);
  // HOME: an empty private folder (the image seldom has the user's home path), unless a mount is the home itself.
  if (!mounts.some((m) => m.path === r.home)) args.push('--mount', `type=tmpfs,destination=${r.home},tmpfs-mode=1777`);
  for (const m of mounts) {
    if (m.kind === 'rw') args.push('-v', `${m.path}:${m.path}`);
    else if (m.kind === 'ro') args.push('-v', `${m.path}:${m.path}:ro`);
    else if (m.kind === 'hide' && m.dir) args.push('--mount', `type=tmpfs,destination=${m.path}`);
    else args.push('-v', `/dev/null:${m.path}:ro`);
  }
  args.push('-w', r.cwd);
  for (const name of r.envNames) args.push('--env', name);
  if ('rootfs' in r.root) args.push('--rootfs', r.root.rootfs);
  else args.push(r.root.image);
  args.push(...r.command);
  return { ok: true, args };
}
