/**
 * The mounts of a bubblewrap sandbox as a list, in the order bwrap must make them: a parent
 * before its children, so a hidden folder can have one child bound back (agent-board's home
 * hidden, the session's own folder bound back read-only; a worktree writable, its `.git` file
 * read-only inside it). Pure: whether a path exists and what it is comes from the caller.
 */

/** `rw`: bound writable; `ro`: bound read-only; `hide`: covered (an empty tmpfs for a folder, /dev/null for a file). */
export type MountKind = 'rw' | 'ro' | 'hide';

export interface MountOp {
  kind: MountKind;
  /** Absolute, normalised (no trailing slash, no `..`). */
  path: string;
}

/** What is at a path on the host: a folder, a file (anything not a folder: a socket too), or nothing. */
export type PathType = 'dir' | 'file' | null;

/** How deep a path is: `/` is 0, `/a` 1, `/a/b` 2. */
export function pathDepth(p: string): number {
  return p.split('/').filter(Boolean).length;
}

/** Whether `inner` is `outer` or lies under it. */
export function isWithin(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

/**
 * The ops bwrap is given, sorted by depth (stable: at one depth, the order given). A path that
 * does not exist is dropped: nothing to hide, nothing to bind (the runner made the writable
 * folders before). The same path given twice keeps its last op: a later, more specific rule wins.
 */
export function orderMounts(ops: readonly MountOp[], typeOf: (p: string) => PathType): Array<MountOp & { type: 'dir' | 'file' }> {
  const last = new Map<string, MountOp>();
  for (const op of ops) {
    last.delete(op.path);
    last.set(op.path, op);
  }
  const kept: Array<MountOp & { type: 'dir' | 'file' }> = [];
  for (const op of last.values()) {
    const type = typeOf(op.path);
    if (type) kept.push({ ...op, type });
  }
  return kept.map((op, i) => ({ op, i })).sort((a, b) => pathDepth(a.op.path) - pathDepth(b.op.path) || a.i - b.i).map((x) => x.op);
}

/**
 * A hidden folder's mode: private, as agent-board's home must be (its commands run inside refuse,
 * or try to fix, a home others could read; the fix would fail on the read-only tmpfs).
 */
const HIDDEN_DIR_MODE = '0700';

/** One op as bwrap's words. A hidden folder's tmpfs is made read-only at the very end (bwrapMountArgs), after its children are bound. */
function opArgs(op: MountOp & { type: 'dir' | 'file' }): string[] {
  if (op.kind === 'rw') return ['--bind', op.path, op.path];
  if (op.kind === 'ro') return ['--ro-bind', op.path, op.path];
  return op.type === 'dir' ? ['--perms', HIDDEN_DIR_MODE, '--tmpfs', op.path] : ['--ro-bind', '/dev/null', op.path];
}

/**
 * The ordered ops as bwrap arguments. Hidden folders are empty tmpfs mounts, writable as made:
 * each is remounted read-only last, once bwrap has made the mount points of the children bound
 * back inside it (it cannot make them in a read-only tmpfs).
 */
export function bwrapMountArgs(ordered: ReadonlyArray<MountOp & { type: 'dir' | 'file' }>): string[] {
  const args = ordered.flatMap(opArgs);
  for (const op of ordered) if (op.kind === 'hide' && op.type === 'dir') args.push('--remount-ro', op.path);
  return args;
}

/** The git pieces of a worktree session (GitPieces), as mounts: its own branch's parts writable, what says where the repository is and every other branch pinned read-only. */
export function gitMountOps(git: { adminDir: string; refDirs: readonly string[]; objectDir: string; dotGit: string; adminFixed: readonly string[]; pinned: readonly string[] }): MountOp[] {
  return [
    ...[git.adminDir, ...git.refDirs, git.objectDir].map((path): MountOp => ({ kind: 'rw', path })),
    ...[git.dotGit, ...git.adminFixed, ...git.pinned].map((path): MountOp => ({ kind: 'ro', path })),
  ];
}
