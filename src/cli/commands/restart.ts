/** `agent-board restart`: start a session again in place (same id, name, command and folder). */
import type { Command } from 'commander';
import { restartSession } from '../../client/session/session-actions.js';
import { findSessionAsked } from '../../client/session/silent-runners.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';

export function registerRestart(program: Command): void {
  program
    .command('restart')
    .description("start the session again in place: same id, name, command and folder, new generation, the agent's conversation resumed where it can (a running program is ended first)")
    .argument('<session>', 'id, name or unique prefix')
    .action(async (ref: string) => {
      const home = getHome();
      const s = await findSessionAsked(home, ref, cliTime().scheduler);
      const { record: rec, conversation } = await restartSession(home, s, cliTime());
      process.stdout.write(`${rec.name} restarted (${rec.status}, generation ${rec.generation}): ${conversation.note}\n`);
    });
}
