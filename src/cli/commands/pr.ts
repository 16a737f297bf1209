/** `agent-board pr`: push a worktree session's branch and open a pull request with gh. */
import type { Command } from 'commander';
import { findSession } from '../../client/session/sessions.js';
import { openPullRequest } from '../../client/worktree/worktree-pr.js';
import { getHome } from '../context.js';
import { worktreeOf } from '../worktree-of.js';

export function registerPr(program: Command): void {
  program
    .command('pr')
    .description("push a worktree session's branch and open a pull request with the GitHub CLI (gh), titled from the session")
    .argument('<session>', 'id, name or unique prefix')
    .option('--title <title>', "the pull request's title (default: the session's name)")
    .action(async (ref: string, o: { title?: string }) => {
      const s = findSession(getHome(), ref);
      const w = worktreeOf(s, 'pr');
      const r = await openPullRequest(w, { title: o.title ?? s.name, from: `${s.name} (${s.agent})` });
      process.stdout.write(`pushed ${w.branch} to ${r.remote}; pull request: ${r.url || '(gh printed no address)'}\n`);
    });
}
