import fs from 'node:fs';
import path from 'node:path';
import type { WorktreeInfo } from '../../core/worktree/worktree.js';
import { EXIT, UserError } from '../../state/errors.js';
import { makeDirs, writing } from '../../state/write-errors.js';
import { git, gitComplaint, gitSync, repoRoot } from '../../state/worktree/git.js';
import { readRepoConfig, worktreePath } from '../../state/worktree/worktree-config.js';
import { copyIncluded, type IncludeResult } from '../../state/worktree/worktree-include.js';

/**
 * `new --worktree`: a branch from the base, checked out as a git worktree
 * outside the main checkout (src/state/worktree/worktree-config.ts says where), with
 * the files `.worktreeinclude` names copied in. The session then runs there.
 */

export interface WorktreeRequest {
  /** Where `new` was asked to run (--cwd): inside the repository. */
  cwd: string;
  branch: string;
  /** --base: a ref as given; default the branch HEAD is on (or HEAD's commit, detached). */
  base?: string;
  /** --reuse-branch: check out an existing branch instead of refusing it. */
  reuse: boolean;
  /** --setup: overrides the repository config's `worktree.setup`. */
  setup?: string;
}

export interface MadeWorktree {
  info: WorktreeInfo;
  include: IncludeResult;
  /** The setup command to run before the program, if any. */
  setup?: string;
  /** Undo: remove the worktree (and the branch, if made here), for a session that then failed to start. */
  undo(): Promise<void>;
}

/** The main checkout's top folder (not a linked worktree's), or a UserError (not a repository). */
export function mainCheckout(cwd: string): string {
  const top = repoRoot(cwd);
  if (!top) throw new UserError(`${cwd} is not in a git repository: --worktree needs one (cd into it or pass --cwd)`, EXIT.notARepo);
  // Inside a linked worktree, the main checkout is where the common git folder lives.
  const common = gitSync(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: top });
  if (common.code === 0 && path.basename(common.stdout.trim()) === '.git') return path.dirname(common.stdout.trim());
  return top;
}

function refExists(repo: string, ref: string): boolean {
  return gitSync(['show-ref', '--verify', '--quiet', ref], { cwd: repo }).code === 0;
}

function commitOf(repo: string, ref: string): string | null {
  const r = gitSync(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** What the work is measured against: the ref given, else the branch HEAD is on, else HEAD's commit. */
function resolveBase(repo: string, given: string | undefined): { base: string; baseCommit: string } {
  if (given !== undefined) {
    const c = commitOf(repo, given);
    if (!c) throw new UserError(`--base ${given}: no such branch, tag or commit in ${repo}`, EXIT.usage);
    return { base: given, baseCommit: c };
  }
  const head = commitOf(repo, 'HEAD');
  if (!head) throw new UserError(`${repo} has no commits yet: commit something to branch from`, EXIT.usage);
  const onBranch = gitSync(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: repo });
  return { base: onBranch.code === 0 ? onBranch.stdout.trim() : head, baseCommit: head };
}

export async function makeWorktree(req: WorktreeRequest): Promise<MadeWorktree> {
  const repo = mainCheckout(req.cwd);
  const config = readRepoConfig(repo);
  if (gitSync(['check-ref-format', '--branch', req.branch], { cwd: repo }).code !== 0) {
    throw new UserError(`"${req.branch}" is not a valid branch name`, EXIT.usage);
  }
  const { base, baseCommit } = resolveBase(repo, req.base);
  const exists = refExists(repo, `refs/heads/${req.branch}`);
  if (exists && !req.reuse) {
    throw new UserError(`branch ${req.branch} exists already: pass --reuse-branch to work on it, or name another with --worktree BRANCH`, EXIT.branchExists);
  }
  const dir = worktreePath(repo, req.branch, config);
  if (fs.existsSync(dir)) throw new UserError(`${dir} exists already: remove it, or name another branch with --worktree BRANCH`, EXIT.failure);
  writing('the worktrees folder', path.dirname(dir), () => makeDirs(path.dirname(dir), 0o777));
  const args = exists ? ['worktree', 'add', dir, req.branch] : ['worktree', 'add', '--no-track', '-b', req.branch, dir, baseCommit];
  const r = await git(args, { cwd: repo });
  if (r.code !== 0) throw new UserError(`git worktree add failed: ${gitComplaint(r)}`, EXIT.failure);
  const undo = async (): Promise<void> => {
    await git(['worktree', 'remove', '--force', dir], { cwd: repo });
    if (!exists) await git(['branch', '-D', req.branch], { cwd: repo });
  };
  let include: IncludeResult;
  try {
    include = await copyIncluded(repo, dir);
  } catch (err) {
    await undo();
    throw new UserError(`copying the files .worktreeinclude names failed: ${(err as Error).message}`, EXIT.failure);
  }
  const setup = req.setup ?? config.setup;
  return {
    info: { repo, path: dir, branch: req.branch, base, baseCommit, createdBranch: !exists },
    include,
    ...(setup ? { setup } : {}),
    undo,
  };
}
