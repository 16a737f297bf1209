import type { Command } from 'commander';
import { removeSession } from '../../client/session-actions.js';
import { findSession } from '../../client/sessions.js';
import { getHome } from '../context.js';

export function registerRm(program: Command): void {
  program
    .command('rm')
    .description('remove an exited or lost session (with --force, end a running one first)')
    .argument('<session>', 'id, name or unique prefix')
    .option('-f, --force', 'terminate the session if it is still running')
    .action(async (ref: string, o: { force?: boolean }) => {
      const home = getHome();
      const s = findSession(home, ref);
      await removeSession(home, s, o.force);
      process.stdout.write(`removed ${s.name}\n`);
    });
}
