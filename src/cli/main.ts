/** The CLI's entry: the program, its commands (each loaded only when it is the one asked for) and how a failure ends a run. */
import { Command, CommanderError } from 'commander';
import { EXIT } from '../state/errors.js';
import { reportFailure } from './fail.js';
import { COMMANDER_OUTPUT } from './print.js';

type Register = (program: Command) => void;

/**
 * Every command, by the name (and aliases) it is typed with, and how to load
 * it. A run loads only the command it was asked for: node takes ~90 ms to
 * start here and the whole command set another ~50 ms to load, while the
 * agents call `hook`, `chat` and `send` on every turn and `attach` is waited
 * on by a person. Help, a program option or an unknown word load them all.
 * The order is the order of `--help`; the board comes last because it makes
 * itself the program's own action.
 *
 * `hot`: the commands that start on every turn or under a person's eyes. The
 * build gives them a start-up bundle of their own (scripts/bundle.mjs), which
 * holds these and the board's registration (never its screen) and nothing
 * else: a hot command imports no other command and nothing heavy (Ink, the
 * MCP SDK, xterm), not even lazily.
 */
const COMMANDS: Array<{ names: string[]; hot?: true; load: () => Promise<Register> }> = [
  { names: ['new'], load: async () => (await import('./commands/new.js')).registerNew },
  { names: ['ls', 'list'], hot: true, load: async () => (await import('./commands/ls.js')).registerLs },
  { names: ['peek'], load: async () => (await import('./commands/peek.js')).registerPeek },
  { names: ['attach'], hot: true, load: async () => (await import('./commands/attach.js')).registerAttach },
  { names: ['kill'], load: async () => (await import('./commands/kill.js')).registerKill },
  { names: ['rm'], load: async () => (await import('./commands/rm.js')).registerRm },
  { names: ['rename'], load: async () => (await import('./commands/rename.js')).registerRename },
  { names: ['merge'], load: async () => (await import('./commands/merge.js')).registerMerge },
  { names: ['pr'], load: async () => (await import('./commands/pr.js')).registerPr },
  { names: ['restart'], load: async () => (await import('./commands/restart.js')).registerRestart },
  { names: ['revive'], load: async () => (await import('./commands/revive.js')).registerRevive },
  { names: ['fork'], load: async () => (await import('./commands/fork.js')).registerFork },
  { names: ['explain'], load: async () => (await import('./commands/explain.js')).registerExplain },
  { names: ['diff'], load: async () => (await import('./commands/diff.js')).registerDiff },
  { names: ['send'], hot: true, load: async () => (await import('./commands/send.js')).registerSend },
  { names: ['chat'], hot: true, load: async () => (await import('./commands/chat.js')).registerChat },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcp },
  { names: ['hook'], hot: true, load: async () => (await import('./commands/hook.js')).registerHook },
  { names: ['demo'], load: async () => (await import('./commands/demo.js')).registerDemo },
  { names: ['runner'], load: async () => (await import('./commands/runner.js')).registerRunner },
  { names: ['bridge'], load: async () => (await import('./commands/bridge.js')).registerBridge },
  { names: ['doctor'], load: async () => (await import('./commands/doctor.js')).registerDoctor },
  { names: ['feed'], load: async () => (await import('./commands/feed.js')).registerFeed },
  { names: ['board'], load: async () => (await import('./commands/board.js')).registerBoard },
];

const BOARD = COMMANDS[COMMANDS.length - 1]!;

/** The program's own version option: the program answers it before any command is looked at. */
const VERSION_FLAGS = ['-V', '--version'];

/** The first words of a line that need no command but hot ones (and the board's registration, which goes with them). */
export const HOT_WORDS: readonly string[] = [...VERSION_FLAGS, ...COMMANDS.filter((c) => c.hot).flatMap((c) => c.names)];

/** The commands a run needs: the one named first on the line (and the board, the program's default), none for the version, or all. */
export function commandsFor(argv: string[]): typeof COMMANDS {
  const first = argv[2];
  if (first !== undefined && VERSION_FLAGS.includes(first)) return [];
  const named = first === undefined ? undefined : COMMANDS.find((c) => c.names.includes(first));
  if (first === undefined) return [BOARD];
  if (!named) return COMMANDS; // --help, help, an option for the board, or a typo: the full program
  return named === BOARD ? [BOARD] : [named, BOARD];
}

export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command('agent-board')
    .description('Run AI coding agents (or any program) in sessions that outlive your terminal.')
    .version('0.1.0')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput(COMMANDER_OUTPUT);
  const wanted = argv.length > 2 ? commandsFor(argv) : COMMANDS;
  for (const register of await Promise.all(wanted.map((c) => c.load()))) register(program);
  const settle = (c: Command): void => {
    c.exitOverride().configureOutput(COMMANDER_OUTPUT);
    c.commands.forEach(settle);
  };
  program.commands.forEach(settle);
  return program;
}

/** Runs the CLI; every failure is one line on stderr and an exit code that says what kind. */
export async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its message (or help); keep its code, 2 for usage errors.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
      return;
    }
    reportFailure(err);
  }
}

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) void main(process.argv);
