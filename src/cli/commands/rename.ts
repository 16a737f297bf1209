/** `agent-board rename`: give a session a new name. */
import type { Command } from 'commander';
import { renameSession } from '../../client/session/session-actions.js';
import { findSession } from '../../client/session/sessions.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';

export function registerRename(program: Command): void {
  program
    .command('rename')
    .description('give a session a new name')
    .argument('<session>', 'id, name or unique prefix')
    .argument('<name>', 'the new name')
    .action(async (ref: string, name: string) => {
      const home = getHome();
      const s = findSession(home, ref);
      await renameSession(home, s, name, cliTime());
      process.stdout.write(`renamed ${s.name} to ${name}\n`);
    });
}
