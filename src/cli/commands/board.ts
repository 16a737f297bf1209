/** `agent-board` and `agent-board board`: the command that opens the full-screen board. */
import type { Command } from 'commander';
import { readUserConfig } from '../../state/config.js';
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
    .option('--host <[user@]host>', HOST_HELP, collect, [])
    // The program's own --notify-cmd (below) takes the option wherever it is written: read both.
    .action((o: BoardCliOptions, cmd: Command) => openBoard({ ...o, notifyCmd: o.notifyCmd ?? cmd.optsWithGlobals<BoardCliOptions>().notifyCmd }));
  // With no command at all, the board. Anything else unknown is still a usage error. (No
  // --detach-key here: a program option would take the subcommands' own --detach-key.
  // --notify-cmd is the board's alone.)
  // --host cannot be a program option: the program would take `ls --host`'s. The bare board
  // lets unknown options through and reads its --host from them (anything else is still an error).
  program
    .option('--notify-cmd <cmd>', `the board's: ${notifyHelp}`)
    .allowExcessArguments(true)
    .allowUnknownOption(true)
    .action(async (o: BoardCliOptions, cmd: Command) => {
      const host = bareHosts(cmd.args);
      // A fresh machine (no sessions, no agent CLI on PATH) gets the demo first; not a board of other machines.
      if (host.length === 0 && readUserConfig().config.hosts.length === 0) await (await import('../../demo/demo-setup.js')).demoOnFreshMachine(getHome(), cliTime());
      return openBoard({ notifyCmd: o.notifyCmd, host });
    });
}

const HOST_HELP = 'also list the sessions of this machine, over ssh (repeatable; adds to config.json "hosts")';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `agent-board --host A --host=B`: the hosts; any other word is the error it always was. */
function bareHosts(args: readonly string[]): string[] {
  const hosts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--host') {
      if (i + 1 >= args.length) throw new UserError('--host needs a [user@]host', EXIT.usage);
      hosts.push(args[++i]!);
    }
    else if (a.startsWith('--host=')) hosts.push(a.slice('--host='.length));
    else if (a.startsWith('-')) throw new UserError(`unknown option "${a}"; see: agent-board --help`, EXIT.usage);
    else throw new UserError(`unknown command "${a}"; see: agent-board --help`, EXIT.usage);
  }
  return hosts;
}
