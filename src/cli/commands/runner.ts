import type { Command } from 'commander';
import { runRunner } from '../../runner/main.js';

export function registerRunner(program: Command): void {
  program
    .command('runner', { hidden: true })
    .description('(internal) the background process that owns one session')
    .argument('<id>')
    .action(async (id: string) => runRunner(id));
}
