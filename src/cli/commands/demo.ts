/** `agent-board demo`: the demo room (two scripted demo agents and a shell) set up and shown on the board. */
import type { Command } from 'commander';
import { demoReport, setUpDemo } from '../../demo/demo-setup.js';
import { EXIT, UserError } from '../../state/errors.js';
import { cliTime } from '../cli-time.js';
import { getHome } from '../context.js';
import { openBoard } from '../open-board.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('a room with two demo agents (scripted, no API key) and a shell, talking through the chat; then the board')
    .option('--no-board', 'set up (or reuse) the demo and print what it made, without opening the board')
    .option('--stop', 'end the demo: its sessions (alice, bob, shell) and its room with its chat')
    .option('--notify-cmd <cmd>', 'as for the board: run CMD when a session needs the user (waiting) or finishes a turn (busy to idle)')
    .action(async (o: { board: boolean; stop?: boolean; notifyCmd?: string }, cmd: Command) => {
      if (o.stop) {
        const { stopDemo } = await import('../../demo/demo-stop.js');
        process.stdout.write(`${await stopDemo(getHome(), cliTime())}\n`);
        return;
      }
      if (o.board && (!process.stdin.isTTY || !process.stdout.isTTY)) {
        throw new UserError('the board needs a terminal; to set up the demo from a script use: agent-board demo --no-board', EXIT.usage);
      }
      const home = getHome();
      process.stdout.write(demoReport(await setUpDemo(home, cliTime())));
      const notifyCmd = o.notifyCmd ?? cmd.optsWithGlobals<{ notifyCmd?: string }>().notifyCmd;
      if (o.board) await openBoard({ notifyCmd });
    });
}
