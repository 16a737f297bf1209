import readline from 'node:readline';
import type { Command } from 'commander';
import { removeSessionReporting } from '../../client/session/session-actions.js';
import { findSessionAsked } from '../../client/session/silent-runners.js';
import { assessWorktree, workAtRisk } from '../../client/worktree/worktree-remove.js';
import { EXIT, UserError } from '../../state/errors.js';
import type { SessionView } from '../../state/host-store.js';
import type { WorktreeInfo } from '../../core/worktree/worktree.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';
import { worktreeOf } from '../worktree-of.js';

/** One y/N question on the terminal; anything but y or yes is no. */
function ask(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      resolve(/^y(es)?$/i.test(answer.trim())); // before close(), whose 'close' event would answer no
      rl.close();
    });
    rl.on('close', () => resolve(false)); // Ctrl-D or Ctrl-C: no
  });
}

/** --discard deletes work: asked on a terminal (unless --yes), refused without one (unless --yes). */
async function confirmDiscard(s: SessionView, w: WorktreeInfo, yes: boolean): Promise<void> {
  if (yes) return;
  const risk = workAtRisk(await assessWorktree(w), w);
  if (!risk) return; // nothing would be lost: nothing to confirm
  const what = `rm --discard deletes worktree ${w.path}${w.createdBranch ? ` and branch ${w.branch}` : ''} with ${risk}`;
  if (!process.stdin.isTTY) throw new UserError(`${what}; there is no terminal to confirm on: add --yes`, EXIT.usage);
  if (!(await ask(`${what}, lost for good. Delete? [y/N] `))) throw new UserError(`kept ${s.name}, its worktree and its branch: nothing was deleted`, EXIT.failure);
}

export function registerRm(program: Command): void {
  program
    .command('rm')
    .description('remove an exited or lost session (with --force, end a running one first); a worktree and its branch go only when merged and clean')
    .argument('<session>', 'id, name or unique prefix')
    .option('-f, --force', 'terminate the session if it is still running')
    .option('--discard', "also delete the session's worktree and branch with any uncommitted or unmerged work (asks first)")
    .option('-y, --yes', 'with --discard: do not ask (needed without a terminal)')
    .action(async (ref: string, o: { force?: boolean; discard?: boolean; yes?: boolean }) => {
      if (o.yes && !o.discard) throw new UserError('--yes goes with --discard', EXIT.usage);
      const home = getHome();
      const s = await findSessionAsked(home, ref, cliTime().scheduler);
      if (o.discard) {
        const w = worktreeOf(s, 'rm --discard');
        if ((s.status === 'running' || s.status === 'starting') && !o.force) {
          throw new UserError(`${s.name} is still running; end it with: agent-board kill ${s.name} (or rm --force)`, EXIT.failure);
        }
        await confirmDiscard(s, w, o.yes === true);
      }
      const note = await removeSessionReporting(home, s, cliTime(), o.force, o.discard);
      process.stdout.write(`removed ${s.name}${note ? `; ${note}` : ''}\n`);
    });
}
