/** `agent-board fork`: a new session continuing another's conversation under a new id (optionally in its own worktree); prints its id. */
import type { Command } from 'commander';
import { forkSession } from '../../client/session/session-fork.js';
import { findSession } from '../../client/session/sessions.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';

export function registerFork(program: Command): void {
  program
    .command('fork')
    .description("start a new session of the same kind, room and folder that continues the session's conversation under a new id; prints its id")
    .argument('<session>', 'id, name or unique prefix')
    .option('-n, --name <name>', 'its name (default <name>-fork-1, -2, ...)')
    .option('-w, --worktree [branch]', "in a new git worktree on a new branch (default agent/<name>) from the session's current HEAD (its uncommitted changes are not carried)")
    .action(async (ref: string, o: { name?: string; worktree?: string | true }) => {
      const home = getHome();
      const s = findSession(home, ref);
      const forked = await forkSession(home, s, { name: o.name, worktree: o.worktree, onSkipped: (line) => process.stderr.write(`agent-board: .worktreeinclude: ${line}\n`) }, cliTime());
      for (const note of forked.notes) process.stderr.write(`agent-board: ${forked.record.name}: ${note}\n`);
      process.stdout.write(`${forked.record.id}\n`);
    });
}
