/**
 * A session in its own git worktree: what host.json records of it and what
 * the runner keeps fresh (docs/worktrees.md). Shapes only, and the pure rules
 * around them.
 */

/** Recorded by `new --worktree` in host.json (`worktree`). */
export interface WorktreeInfo {
  /** The main checkout's top folder (where `git worktree add` ran). */
  repo: string;
  /** The worktree's folder: the session's cwd. */
  path: string;
  /** The session's branch, checked out in the worktree. */
  branch: string;
  /** The branch (or ref, as given with --base) the work is measured against and merged into. */
  base: string;
  /** The base's commit when the worktree was made. */
  baseCommit: string;
  /** Whether `new` created the branch (false: an existing branch reused with --reuse-branch). */
  createdBranch: boolean;
}

/** What the work amounts to, against the base; written by the runner in host.json (`worktreeStats`). */
export interface WorktreeStats {
  /** Files changed against the merge base: committed, uncommitted and new untracked files alike. */
  files: number;
  added: number;
  removed: number;
  /** Commits on the branch not on the base, and on the base not on the branch. */
  ahead: number;
  behind: number;
  /** Paths with uncommitted changes (staged, unstaged or untracked), as `git status --porcelain` counts them. */
  uncommitted: number;
  /** When these were counted (ISO). */
  at: string;
  /** The worktree's folder is gone (deleted by hand): nothing else is counted. */
  missing?: boolean;
  /** Counting failed: one line, why. */
  error?: string;
}

/** A branch name from a session name: `feat api` -> `agent/feat-api`. */
export function branchForSession(name: string, prefix = 'agent/'): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.\.+/g, '.')
    .replace(/\.lock$/, '');
  return `${prefix}${slug || 'session'}`;
}

/** `⎇ agent/api +12 -3 4 files ↑2 ↓0 ✎1`: the one-line summary ls and the board show. */
export function worktreeSummary(w: WorktreeInfo, s: WorktreeStats | undefined): string {
  if (!s) return `⎇ ${w.branch}`;
  if (s.missing) return `⎇ ${w.branch} (worktree deleted)`;
  if (s.error) return `⎇ ${w.branch} (${s.error})`;
  const parts = [`⎇ ${w.branch}`, `+${s.added} -${s.removed}`, `${s.files} file${s.files === 1 ? '' : 's'}`, `↑${s.ahead} ↓${s.behind}`];
  if (s.uncommitted) parts.push(`✎${s.uncommitted}`);
  return parts.join(' ');
}
