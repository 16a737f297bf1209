/** `agent-board` and `agent-board board`: the command that opens the full-screen board. */
import type { Command } from 'commander';
import { readUserConfig } from '../../state/config.js';
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
    .option('--host <[user@]host>', HOST_HELP, collect)
    // Written before the command (`agent-board --notify-cmd X board`), it is the program's own (below): read both.
    .action((o: BoardCliOptions, cmd: Command) => openBoard({ ...o, notifyCmd: o.notifyCmd ?? cmd.optsWithGlobals<BoardCliOptions>().notifyCmd }));
  // With no command at all, the board. (No --detach-key here: a program option would take the
  // subcommands' own --detach-key. --notify-cmd is the board's alone; --host is the program's,
  // main.ts, which also hands it to a command written after it.)
  program
    .option('--notify-cmd <cmd>', "the board's: run CMD when a session needs you or finishes a turn (see: agent-board board --help)")
    .action(async (o: BoardCliOptions) => {
      const host = o.host ?? [];
      // A fresh machine (no sessions, no agent CLI on PATH) gets the demo first; not a board of other machines.
      if (host.length === 0 && readUserConfig().config.hosts.length === 0) await (await import('../../demo/demo-setup.js')).demoOnFreshMachine(getHome(), cliTime());
      return openBoard({ notifyCmd: o.notifyCmd, host });
    });
}

const HOST_HELP = 'also list the sessions of this machine, over ssh (repeatable; adds to config.json "hosts")';

/** Each --host given, in order (no default: the help would print it). */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
