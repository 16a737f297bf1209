/** `agent-board` and `agent-board board`: the command that opens the full-screen board. */
import type { Command } from 'commander';
import { EXIT, UserError } from '../../state/errors.js';
import { cliTime } from '../cli-time.js';
import { getHome } from '../context.js';
import { openBoard, type BoardCliOptions } from '../open-board.js';

/** `agent-board` (no command) and `agent-board board`: the full-screen board. */
export function registerBoard(program: Command): void {
  const detachKeyHelp = 'the key that comes back from an attach, e.g. ctrl-] (also AGENT_BOARD_DETACH_KEY)';
  const notifyHelp =
    'run CMD (through /bin/sh, detached, output ignored) when a session needs the user (waiting) or finishes a turn (busy to idle); ' +
    'it gets AGENT_BOARD_SESSION, AGENT_BOARD_SESSION_NAME, AGENT_BOARD_STATE, AGENT_BOARD_PREVIOUS_STATE';
  program
    .command('board')
    .description('the board: every session, its state and its screen; attach, start, kill from there (the default command)')
    .option('--detach-key <key>', detachKeyHelp)
    .option('--notify-cmd <cmd>', notifyHelp)
    // The program's own --notify-cmd (below) takes the option wherever it is written: read both.
    .action((o: BoardCliOptions, cmd: Command) => openBoard({ ...o, notifyCmd: o.notifyCmd ?? cmd.optsWithGlobals<BoardCliOptions>().notifyCmd }));
  // With no command at all, the board. Anything else unknown is still a usage error. (No
  // --detach-key here: a program option would take the subcommands' own --detach-key.
  // --notify-cmd is the board's alone.)
  program
    .option('--notify-cmd <cmd>', `the board's: ${notifyHelp}`)
    .allowExcessArguments(true)
    .action(async (o: BoardCliOptions, cmd: Command) => {
      if (cmd.args.length > 0) throw new UserError(`unknown command "${cmd.args[0]}"; see: agent-board --help`, EXIT.usage);
      // A fresh machine (no sessions, no agent CLI on PATH) gets the demo first.
      await (await import('../../demo/demo-setup.js')).demoOnFreshMachine(getHome(), cliTime());
      return openBoard({ notifyCmd: o.notifyCmd });
    });
}
