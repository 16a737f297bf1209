import type { Command } from 'commander';
import { findSession } from '../../client/session/sessions.js';
import { mergeWorktree, type MergeMode } from '../../client/worktree/worktree-merge.js';
import { EXIT, UserError } from '../../state/errors.js';
import { getHome } from '../context.js';
import { worktreeOf } from '../worktree-of.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description("merge a worktree session's branch into its base (or --into) in the main checkout; never commits uncommitted work")
    .argument('<session>', 'id, name or unique prefix')
    .option('--squash', 'squash the branch into one change, staged in the main checkout and not committed')
    .option('--rebase', 'rebase the branch onto the target in the worktree, then fast-forward the target')
    .option('--into <branch>', 'merge into this branch instead of the base')
    .action(async (ref: string, o: { squash?: boolean; rebase?: boolean; into?: string }) => {
      if (o.squash && o.rebase) throw new UserError('--squash and --rebase do not go together: pick one', EXIT.usage);
      const s = findSession(getHome(), ref);
      const mode: MergeMode = o.squash ? 'squash' : o.rebase ? 'rebase' : 'merge';
      const r = await mergeWorktree(worktreeOf(s, 'merge'), { mode, into: o.into });
      process.stdout.write(`${r.message}\n`);
    });
}
