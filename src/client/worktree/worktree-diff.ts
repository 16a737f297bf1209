import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePatch } from 'diff';
import { diffModel, type DiffModel } from '../../core/worktree/diff-model.js';
import type { WorktreeInfo } from '../../core/worktree/worktree.js';
import { EXIT, UserError } from '../../state/errors.js';
import { git, gitComplaint, type GitResult } from '../../state/worktree/git.js';

/**
 * Everything a worktree session changed against its base: committed,
 * uncommitted and new untracked files alike, as one patch from the merge
 * base of the base and HEAD. The worktree's files are staged into a
 * temporary index (a copy of its own, so git's stat cache still holds), so
 * the user's index is never touched; .gitignore is honoured. Parsed with
 * jsdiff (the `diff` package: it reads git's extended headers, renames,
 * binary files and quoted names).
 */

export interface WorktreeDiff {
  /** The ref the work is measured against, and the merge base it resolved to. */
  base: string;
  mergeBase: string;
  /** git's unified diff, as it printed it. */
  patch: string;
  model: DiffModel;
}

async function must(args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<GitResult> {
  const r = await git(args, { cwd, env });
  if (r.code !== 0) throw new UserError(`git ${args[0]}: ${gitComplaint(r)}`, EXIT.failure);
  return r;
}

/** The merge base of the base and HEAD; the base's commit when the worktree was made if the base is gone. */
async function mergeBaseOf(w: Pick<WorktreeInfo, 'path' | 'base' | 'baseCommit'>): Promise<string> {
  const r = await git(['merge-base', w.base, 'HEAD'], { cwd: w.path });
  if (r.code === 0) return r.stdout.trim();
  if (w.baseCommit) {
    const again = await git(['merge-base', w.baseCommit, 'HEAD'], { cwd: w.path });
    if (again.code === 0) return again.stdout.trim();
  }
  throw new UserError(`no merge base of ${w.base} and HEAD in ${w.path}: ${gitComplaint(r)}`, EXIT.failure);
}

/** Git's options that would change what the patch looks like, pinned (a user's diff.noprefix, color.ui, external diff). */
const PATCH_ARGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--find-renames', '--src-prefix=a/', '--dst-prefix=b/'];

export async function worktreeDiff(w: Pick<WorktreeInfo, 'path' | 'base'> & Partial<Pick<WorktreeInfo, 'baseCommit'>>): Promise<WorktreeDiff> {
  if (!existsSync(w.path)) throw new UserError(`the worktree ${w.path} is gone`, EXIT.notARepo);
  const inside = await git(['rev-parse', '--is-inside-work-tree'], { cwd: w.path });
  if (inside.code !== 0) throw new UserError(`${w.path} is not a git worktree: ${gitComplaint(inside)}`, EXIT.notARepo);
  const mergeBase = await mergeBaseOf({ baseCommit: '', ...w });
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-board-diff-'));
  try {
    const index = path.join(dir, 'index');
    const own = path.resolve(w.path, (await must(['rev-parse', '--git-path', 'index'], w.path)).stdout.trim());
    const env = { GIT_INDEX_FILE: index };
    if (existsSync(own)) copyFileSync(own, index);
    else await must(['read-tree', 'HEAD'], w.path, env);
    await must(['add', '-A', '--', ':/'], w.path, env);
    const patch = (await must(['diff', '--cached', ...PATCH_ARGS, mergeBase], w.path, env)).stdout;
    return { base: w.base, mergeBase, patch, model: diffModel(parsePatch(patch)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
