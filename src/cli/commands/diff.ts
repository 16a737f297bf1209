import type { Command } from 'commander';
import { findSession } from '../../client/session/sessions.js';
import { worktreeDiff } from '../../client/worktree/worktree-diff.js';
import { colorPatch, diffJson, statText } from '../../core/worktree/diff-text.js';
import { getHome } from '../context.js';
import { worktreeOf } from '../worktree-of.js';

/**
 * `agent-board diff <session> [--stat] [--json] [--color]`: everything a
 * worktree session changed against its base (committed, uncommitted and new
 * untracked files), from the merge base (src/client/worktree/worktree-diff.ts). A
 * session without a worktree is refused with exit 9, as merge and pr refuse it.
 */
export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description("what a worktree session changed against its base: commits, uncommitted and untracked files")
    .argument('<session>', 'id, name or unique prefix')
    .option('--stat', 'the files with their counts, and the totals')
    .option('--json', 'the files, counts and hunks as JSON')
    .option('--color', 'colour the patch (file and hunk headers, additions, removals)')
    .action(async (ref: string, o: { stat?: boolean; json?: boolean; color?: boolean }) => {
      const s = findSession(getHome(), ref);
      const w = worktreeOf(s, 'diff');
      const d = await worktreeDiff(w);
      if (o.json) {
        const json = { id: s.id, name: s.name, branch: w.branch, base: d.base, mergeBase: d.mergeBase, ...diffJson(d.model) };
        process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      } else if (o.stat) {
        process.stdout.write(`${statText(d.model)}\n`);
      } else {
        process.stdout.write(o.color ? colorPatch(d.patch) : d.patch);
      }
    });
}
