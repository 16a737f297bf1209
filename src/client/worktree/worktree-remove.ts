import fs from 'node:fs';
import path from 'node:path';
import type { WorktreeInfo } from '../../core/worktree/worktree.js';
import { GitMissingError, git, gitComplaint, type GitResult } from '../../state/worktree/git.js';

/**
 * What becomes of a worktree session's folder and branch when the session is
 * removed (docs/worktrees.md, "Removing a worktree session"): deleted only
 * when nothing would be lost (the branch merged into its base, nothing
 * uncommitted), else kept and said so; `discard` deletes them anyway. A
 * branch the session did not create is never deleted. Never throws for git's
 * refusals: each outcome is one line.
 */

export interface WorktreeWork {
  /** The main checkout is gone (or no longer a repository): nothing to clean up. */
  repoGone: boolean;
  /** The worktree's folder was deleted by hand. */
  missing: boolean;
  branchExists: boolean;
  /** Paths with uncommitted changes in the worktree (untracked included). */
  uncommitted: number;
  /** Commits on the branch whose changes the base does not have (0 once merged). */
  unmerged: number;
  /** The branch is merged into its base: an ancestor of it, or its changes are all there (a squash merge). */
  merged: boolean;
}

const run = (args: string[], cwd: string): Promise<GitResult> => git(args, { cwd });
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Whether merging `branch` into `base` would change nothing: it is an ancestor, or its changes are in (squashed). */
async function mergedInto(branch: string, base: string, repo: string): Promise<boolean> {
  if ((await run(['merge-base', '--is-ancestor', branch, base], repo)).code === 0) return true;
  const merged = await run(['merge-tree', '--write-tree', base, branch], repo);
  const baseTree = await run(['rev-parse', `${base}^{tree}`], repo);
  // An older git without merge-tree --write-tree fails here: then only the ancestor test counts.
  return merged.code === 0 && baseTree.code === 0 && merged.stdout.split('\n')[0]!.trim() === baseTree.stdout.trim();
}

export async function assessWorktree(w: WorktreeInfo): Promise<WorktreeWork> {
  const none = { missing: !fs.existsSync(w.path), branchExists: false, uncommitted: 0, unmerged: 0, merged: false };
  if (!fs.existsSync(w.repo) || (await run(['rev-parse', '--git-dir'], w.repo)).code !== 0) return { repoGone: true, ...none };
  const branchExists = (await run(['rev-parse', '--verify', '--quiet', `refs/heads/${w.branch}`], w.repo)).code === 0;
  let uncommitted = 0;
  if (!none.missing) {
    const st = await run(['--no-optional-locks', 'status', '--porcelain'], w.path);
    // A folder git cannot read the status of counts as work at risk: it is kept.
    uncommitted = st.code === 0 ? st.stdout.split('\n').filter((l) => l.trim() !== '').length : 1;
  }
  if (!branchExists) return { repoGone: false, ...none, uncommitted };
  const baseKnown = (await run(['rev-parse', '--verify', '--quiet', `${w.base}^{commit}`], w.repo)).code === 0;
  const base = baseKnown ? w.base : w.baseCommit;
  const merged = await mergedInto(w.branch, base, w.repo);
  const count = await run(['rev-list', '--count', `${base}..${w.branch}`], w.repo);
  const unmerged = merged ? 0 : Number(count.stdout.trim()) || 0;
  return { repoGone: false, missing: none.missing, branchExists, uncommitted, unmerged, merged };
}

/** What would be lost, for a confirmation or a note: `2 uncommitted paths and 3 unmerged commits`. */
export function workAtRisk(work: WorktreeWork, w: WorktreeInfo): string {
  const parts: string[] = [];
  if (work.uncommitted) parts.push(plural(work.uncommitted, 'uncommitted path'));
  if (work.unmerged && w.createdBranch) parts.push(`${plural(work.unmerged, 'commit')} not merged into ${w.base}`);
  return parts.join(' and ');
}

async function deleteBranch(w: WorktreeInfo, work: WorktreeWork): Promise<string> {
  if (!work.branchExists) return `branch ${w.branch} was already gone`;
  if (!w.createdBranch) return `kept branch ${w.branch} (it was there before the session)`;
  const r = await run(['branch', '-D', w.branch], w.repo);
  return r.code === 0 ? `deleted branch ${w.branch}` : `kept branch ${w.branch} (${gitComplaint(r)})`;
}

async function deleteWorktree(w: WorktreeInfo, work: WorktreeWork, force: boolean): Promise<string | null> {
  if (work.missing) {
    await run(['worktree', 'prune'], w.repo);
    removeEmptyWorktreesDir(w);
    return null;
  }
  const r = await run(['worktree', 'remove', ...(force ? ['--force'] : []), w.path], w.repo);
  if (r.code !== 0) return gitComplaint(r);
  removeEmptyWorktreesDir(w);
  return null;
}

/**
 * The default folder worktrees go in, `<repo>.worktrees/` beside the main
 * checkout, made by `new --worktree`: removed with its last worktree, and
 * only when empty (rmdir removes nothing else). A folder the user named
 * (AGENT_BOARD_WORKTREE_DIR, `.agent-board.json`) is theirs and stays.
 */
function removeEmptyWorktreesDir(w: WorktreeInfo): void {
  const dir = path.dirname(w.path);
  if (dir !== path.join(path.dirname(w.repo), `${path.basename(w.repo)}.worktrees`)) return;
  try {
    fs.rmdirSync(dir);
  } catch {
    // Not empty (another worktree, or anything else), or gone already: it stays as it is.
  }
}

/** Deletes or keeps the worktree and its branch; one line saying which, and why. */
export async function removeWorktree(w: WorktreeInfo, discard: boolean): Promise<string> {
  let work: WorktreeWork;
  try {
    work = await assessWorktree(w);
  } catch (err) {
    if (err instanceof GitMissingError) return `git is not installed: kept worktree ${w.path} and branch ${w.branch}`;
    throw err;
  }
  if (work.repoGone) return `the repository ${w.repo} is gone: nothing to clean up for worktree ${w.path}`;
  const where = work.missing ? `worktree ${w.path} was already deleted (pruned)` : `deleted worktree ${w.path}`;
  const risk = workAtRisk(work, w);
  if (discard) {
    const failed = await deleteWorktree(w, work, true);
    if (failed) return `could not delete worktree ${w.path}: ${failed}`;
    const lost = risk ? `; discarded ${risk}` : '';
    return `${work.missing ? where : `discarded worktree ${w.path}`}, ${await deleteBranch(w, work)}${lost}`;
  }
  if (work.uncommitted > 0 || (work.branchExists && !work.merged)) {
    const why = [work.uncommitted ? plural(work.uncommitted, 'uncommitted path') : '', work.unmerged ? `${plural(work.unmerged, 'commit')} not merged into ${w.base}` : '']
      .filter(Boolean)
      .join(' and ');
    if (work.missing) {
      await run(['worktree', 'prune'], w.repo);
      return `${where}; kept branch ${w.branch} (${why}); delete it with: git -C ${w.repo} branch -D ${w.branch}`;
    }
    const branchCmd = w.createdBranch ? ` && git -C ${w.repo} branch -D ${w.branch}` : '';
    return `kept worktree ${w.path} and branch ${w.branch} (${why}); rm --discard deletes them with the session, or now: git -C ${w.repo} worktree remove --force ${w.path}${branchCmd}`;
  }
  const failed = await deleteWorktree(w, work, false);
  if (failed) return `kept worktree ${w.path} and branch ${w.branch}: ${failed}`;
  return `${where}, ${await deleteBranch(w, work)}${work.branchExists ? ` (merged into ${w.base}, nothing uncommitted)` : ''}`;
}
