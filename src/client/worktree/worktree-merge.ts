import fs from 'node:fs';
import type { WorktreeInfo } from '../../core/worktree/worktree.js';
import { EXIT, UserError } from '../../state/errors.js';
import { git, gitComplaint, repoRoot, type GitResult } from '../../state/worktree/git.js';

/**
 * Bringing a worktree session's work home (docs/worktrees.md): every check
 * first, then git. Nothing is committed that the user did not ask for: a
 * squash is left staged; a merge commit is git's own `merge --no-edit`, made
 * because `merge` was asked for. A conflict leaves the repository as git left
 * it and says how to go on or back.
 */

export type MergeMode = 'merge' | 'squash' | 'rebase';

export interface MergeRequest {
  mode: MergeMode;
  /** The branch to merge into instead of the worktree's base. */
  into?: string;
}

export interface MergeResult {
  kind: 'fast-forward' | 'merge-commit' | 'squash-staged' | 'rebased' | 'up-to-date';
  target: string;
  /** One line to print. */
  message: string;
}

const run = (args: string[], cwd: string): Promise<GitResult> => git(args, { cwd });
const out = async (args: string[], cwd: string): Promise<string> => (await run(args, cwd)).stdout.trim();
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Paths `git status --porcelain` lists (untracked files included unless `tracked`). */
export async function uncommittedPaths(dir: string, tracked = false): Promise<string[]> {
  const r = await run(['--no-optional-locks', 'status', '--porcelain', ...(tracked ? ['--untracked-files=no'] : [])], dir);
  if (r.code !== 0) throw new UserError(`cannot read the status of ${dir}: ${gitComplaint(r)}`, EXIT.failure);
  return r.stdout.split('\n').filter((l) => l.trim() !== '');
}

const isAncestor = async (a: string, b: string, cwd: string) => (await run(['merge-base', '--is-ancestor', a, b], cwd)).code === 0;
const localBranch = async (name: string, cwd: string) => (await run(['rev-parse', '--verify', '--quiet', `refs/heads/${name}`], cwd)).code === 0;
const conflicted = async (cwd: string) => (await out(['diff', '--name-only', '--diff-filter=U'], cwd)).split('\n').filter(Boolean);

function conflictLine(files: string[]): string {
  const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? `, and ${files.length - 3} more` : '');
  return `${plural(files.length, 'file')} (${shown})`;
}

/** The checks that change nothing: the repository, the worktree's uncommitted work, the target and the main checkout. */
async function check(w: WorktreeInfo, req: MergeRequest): Promise<string> {
  if (!fs.existsSync(w.repo) || repoRoot(w.repo) === null) {
    throw new UserError(`${w.repo} is no longer a git repository; nothing to merge into`, EXIT.notARepo);
  }
  if (!(await localBranch(w.branch, w.repo))) throw new UserError(`branch ${w.branch} no longer exists in ${w.repo}`, EXIT.failure);
  if (fs.existsSync(w.path)) {
    const dirty = await uncommittedPaths(w.path);
    if (dirty.length > 0) {
      throw new UserError(
        `${w.path} has ${plural(dirty.length, 'uncommitted path')}; nothing was merged. Commit them first: git -C ${w.path} add -A && git -C ${w.path} commit`,
        EXIT.workAtRisk,
      );
    }
  } else if (req.mode === 'rebase') {
    throw new UserError(`the worktree ${w.path} was deleted, so there is nowhere to rebase ${w.branch}; merge without --rebase`, EXIT.notARepo);
  }
  const target = req.into ?? w.base;
  if (!(await localBranch(target, w.repo))) {
    throw new UserError(`${target} is not a local branch of ${w.repo}; name one with --into BRANCH`, EXIT.usage);
  }
  if (target === w.branch) throw new UserError(`cannot merge ${w.branch} into itself; name another branch with --into`, EXIT.usage);
  const head = await run(['symbolic-ref', '--quiet', '--short', 'HEAD'], w.repo);
  const on = head.code === 0 ? head.stdout.trim() : 'a detached HEAD';
  if (on !== target) {
    throw new UserError(`the main checkout ${w.repo} is on ${on}, not ${target}; nothing was merged. Switch it first: git -C ${w.repo} switch ${target}`, EXIT.workAtRisk);
  }
  const dirtyMain = await uncommittedPaths(w.repo, true);
  if (dirtyMain.length > 0) {
    throw new UserError(
      `the main checkout ${w.repo} has ${plural(dirtyMain.length, 'uncommitted change')}; nothing was merged. Commit or stash them there first`,
      EXIT.workAtRisk,
    );
  }
  return target;
}

/** A failed merge: a conflict (exit 13, as git left it), or git's refusal before it changed anything. */
async function mergeFailed(r: GitResult, w: WorktreeInfo, target: string, abort: string): Promise<never> {
  const files = await conflicted(w.repo);
  if (files.length === 0) throw new UserError(`git refused to merge ${w.branch} into ${target}: ${gitComplaint(r)}`, EXIT.failure);
  throw new UserError(
    `merging ${w.branch} into ${target} stopped on a conflict in ${conflictLine(files)} in ${w.repo}: resolve them, git add, git commit; or undo it with git -C ${w.repo} ${abort}`,
    EXIT.mergeConflict,
  );
}

export async function mergeWorktree(w: WorktreeInfo, req: MergeRequest): Promise<MergeResult> {
  const target = await check(w, req);
  if (await isAncestor(w.branch, target, w.repo)) {
    return { kind: 'up-to-date', target, message: `${target} already has everything on ${w.branch}; nothing to merge` };
  }
  const ahead = Number(await out(['rev-list', '--count', `${target}..${w.branch}`], w.repo));
  const commits = plural(ahead, 'commit');

  if (req.mode === 'rebase') {
    const r = await run(['rebase', target], w.path);
    if (r.code !== 0) {
      const files = await conflicted(w.path);
      if (files.length === 0) throw new UserError(`git could not rebase ${w.branch} onto ${target}: ${gitComplaint(r)}`, EXIT.failure);
      throw new UserError(
        `rebasing ${w.branch} onto ${target} stopped on a conflict in ${conflictLine(files)} in ${w.path}: resolve them, git add, git rebase --continue; or undo it with git -C ${w.path} rebase --abort`,
        EXIT.mergeConflict,
      );
    }
    const ff = await run(['merge', '--ff-only', w.branch], w.repo);
    if (ff.code !== 0) throw new UserError(`rebased ${w.branch} onto ${target}, but could not fast-forward ${target}: ${gitComplaint(ff)}`, EXIT.failure);
    return { kind: 'rebased', target, message: `rebased ${w.branch} onto ${target} and fast-forwarded ${target} (${commits})` };
  }

  if (req.mode === 'squash') {
    const r = await run(['merge', '--squash', w.branch], w.repo);
    if (r.code !== 0) return mergeFailed(r, w, target, 'reset --merge');
    return {
      kind: 'squash-staged',
      target,
      message: `squashed ${commits} of ${w.branch} into ${target}, staged and not committed; commit them with: git -C ${w.repo} commit`,
    };
  }

  if (await isAncestor(target, w.branch, w.repo)) {
    const r = await run(['merge', '--ff-only', w.branch], w.repo);
    if (r.code !== 0) throw new UserError(`git refused to fast-forward ${target} to ${w.branch}: ${gitComplaint(r)}`, EXIT.failure);
    return { kind: 'fast-forward', target, message: `fast-forwarded ${target} to ${w.branch} (${commits})` };
  }
  const r = await run(['merge', '--no-edit', w.branch], w.repo);
  if (r.code !== 0) return mergeFailed(r, w, target, 'merge --abort');
  return { kind: 'merge-commit', target, message: `merged ${w.branch} into ${target} with a merge commit (${commits})` };
}
