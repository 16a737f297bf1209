/** `agent-board runner` (hidden): the entry of the background process that owns one session. */
import type { Command } from 'commander';

export function registerRunner(program: Command): void {
  program
    .command('runner', { hidden: true })
    .description('(internal) the background process that owns one session')
    .argument('<id>')
    .action(async (id: string) => (await import('../../runner/main.js')).runRunner(id));
}
