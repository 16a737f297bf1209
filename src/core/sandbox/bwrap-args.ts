/**
 * The whole bubblewrap command for one sandboxed session (docs/sandbox.md): what node-pty spawns
 * instead of the program. Pure: every place is resolved by the runner (src/state/sandbox/) and
 * whether a path exists comes in as `typeOf`.
 *
 * The shape: `env --ignore-signal=INT,QUIT,TERM,HUP bwrap <namespaces> <mounts> -- env
 * --default-signal=INT,QUIT,TERM,HUP [bridge...] <program> <args>`. No `--new-session`: the
 * program keeps the PTY as its controlling terminal (SIGWINCH on resize, Ctrl-C as SIGINT).
 * bwrap ignores the polite signals so a Ctrl-C, or the runner's SIGTERM to the group, ends the
 * program, and bwrap then exits with the program's status; the program gets them back as default.
 */
import type { SandboxNetwork } from './sandbox-types.js';
import { bwrapMountArgs, gitMountOps, isWithin, orderMounts, type MountOp, type PathType } from './sandbox-mounts.js';

/** The signals a terminal or the runner sends politely: bwrap ignores them, the program does not. */
const POLITE_SIGNALS = 'INT,QUIT,TERM,HUP';

/** What a worktree session's git needs (src/state/sandbox/git-sandbox.ts; research §3.2). */
export interface GitPieces {
  /** The repository's common git folder (read-only but for the pieces below). */
  commonDir: string;
  /** The worktree's admin folder `<common>/worktrees/<name>`: HEAD, index, logs (writable). */
  adminDir: string;
  /** Files in the admin folder that say where the repository is: `commondir`, `gitdir` (read-only). */
  adminFixed: string[];
  /** The worktree's `.git` file (read-only). */
  dotGit: string;
  /** `<common>/refs/heads` and `<common>/logs/refs/heads` (writable: a commit moves the branch, a new branch may be made). */
  refDirs: string[];
  /** Every other branch's ref file and reflog (read-only: pinned). */
  pinned: string[];
  /** The session's own object folder (writable); the shared one is read-only. */
  objectDir: string;
}

export interface SandboxPlanInput {
  bwrap: string;
  command: string;
  args: readonly string[];
  cwd: string;
  userHome: string;
  /** What agent-board itself runs from (its package folder, node's): read inside by the hooks, chat and MCP commands. */
  toolRoots?: readonly string[];
  /** agent-board's home (hidden but for the session's own pieces). */
  boardHome: string;
  /** The session's folder in it (read-only: host.json says the session is sandboxed). */
  sessionDir: string;
  socketPath: string;
  /** The session's chat room folder (writable: chat posts). */
  roomDir: string;
  /** The kind's own state folder (writable), if it keeps one. */
  stateDir: string | null;
  git: GitPieces | null;
  /** Hidden, absolute: the deny list, other kinds' state folders, other sessions' worktrees. */
  denied: readonly string[];
  /** $XDG_RUNTIME_DIR or /run/user/<uid>: the user's systemd, D-Bus and agents' sockets (hidden). */
  runtimeDir: string | null;
  network: SandboxNetwork;
  /** `--network allowlist`: the proxy's socket (bound in) and the bridge run before the program. */
  proxy: { socketPath: string; bridge: readonly string[] } | null;
  typeOf: (p: string) => PathType;
}

export interface SandboxCommand {
  command: string;
  args: string[];
}

/** The mount ops, before ordering: hidden first, then bound back; later ops at one path win. */
export function sandboxMounts(p: SandboxPlanInput): MountOp[] {
  const ops: MountOp[] = [];
  const hide = (path: string) => ops.push({ kind: 'hide', path });
  const ro = (path: string) => ops.push({ kind: 'ro', path });
  const rw = (path: string) => ops.push({ kind: 'rw', path });
  // The private /tmp hides the host's: what the program must read there is bound back (a home or a repository under /tmp).
  const underTmp = (path: string) => isWithin(path, '/tmp');
  if (underTmp(p.userHome)) ro(p.userHome);
  for (const root of p.toolRoots ?? []) if (underTmp(root)) ro(root);
  if (p.git && underTmp(p.git.commonDir)) ro(p.git.commonDir);
  for (const d of p.denied) hide(d);
  hide(p.boardHome);
  if (p.runtimeDir) hide(p.runtimeDir);
  ro(p.sessionDir);
  ro(p.socketPath);
  if (p.proxy) rw(p.proxy.socketPath);
  rw(p.roomDir);
  if (p.stateDir) rw(p.stateDir);
  rw(p.cwd);
  if (p.git) ops.push(...gitMountOps(p.git));
  return ops;
}

/** The command node-pty spawns for the sandboxed program. */
export function bwrapCommand(p: SandboxPlanInput): SandboxCommand {
  const namespaces = ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (p.network !== 'all') namespaces.push('--unshare-net');
  const base = ['--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const mounts = bwrapMountArgs(orderMounts(sandboxMounts(p), p.typeOf));
  const inner = ['env', `--default-signal=${POLITE_SIGNALS}`, ...(p.proxy?.bridge ?? []), p.command, ...p.args];
  return {
    command: 'env',
    args: [`--ignore-signal=${POLITE_SIGNALS}`, p.bwrap, ...namespaces, ...base, ...mounts, '--chdir', p.cwd, '--', ...inner],
  };
}
