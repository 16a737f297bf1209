/** The CLI's entry: the program, its commands (each loaded only when it is the one asked for) and how a failure ends a run. */
import { Command, CommanderError } from 'commander';
import { EXIT, UserError } from '../state/errors.js';
import { commanderErrorOutput } from './commander-errors.js';
import { didYouMean } from './did-you-mean.js';
import { reportFailure } from './fail.js';
import { dressTopLevelHelp } from './program-help.js';
import { COMMANDER_OUTPUT } from './print.js';

type Register = (program: Command) => void;

/**
 * Every command, by the name (and aliases) it is typed with, and how to load
 * it. A run loads only the command it was asked for: node takes ~90 ms to
 * start here and the whole command set another ~50 ms to load, while the
 * agents call `hook`, `chat` and `send` on every turn and `attach` is waited
 * on by a person. Help, an option or an unknown word load them all (the
 * program's own options, `--host box ls`, are looked past).
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
  { names: ['usage'], load: async () => (await import('./commands/usage.js')).registerUsage },
  { names: ['explain'], load: async () => (await import('./commands/explain.js')).registerExplain },
  { names: ['diff'], load: async () => (await import('./commands/diff.js')).registerDiff },
  { names: ['send'], hot: true, load: async () => (await import('./commands/send.js')).registerSend },
  { names: ['chat'], hot: true, load: async () => (await import('./commands/chat.js')).registerChat },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcp },
  { names: ['hook'], hot: true, load: async () => (await import('./commands/hook.js')).registerHook },
  { names: ['demo'], load: async () => (await import('./commands/demo.js')).registerDemo },
  { names: ['runner'], load: async () => (await import('./commands/runner.js')).registerRunner },
  { names: ['bridge'], load: async () => (await import('./commands/bridge.js')).registerBridge },
  { names: ['web'], load: async () => (await import('./commands/web.js')).registerWeb },
  { names: ['doctor'], load: async () => (await import('./commands/doctor.js')).registerDoctor },
  { names: ['feed'], load: async () => (await import('./commands/feed.js')).registerFeed },
  { names: ['board'], load: async () => (await import('./commands/board.js')).registerBoard },
];

const BOARD = COMMANDS[COMMANDS.length - 1]!;

/** The program's own version option: the program answers it before any command is looked at. */
const VERSION_FLAGS = ['-V', '--version'];

/** The first words of a line that need no command but hot ones (and the board's registration, which goes with them). */
export const HOT_WORDS: readonly string[] = [...VERSION_FLAGS, ...COMMANDS.filter((c) => c.hot).flatMap((c) => c.names)];

/** The program's own options that take a value: the command's word comes after them (`agent-board --host box ls`). */
const PROGRAM_VALUED = ['--host', '--notify-cmd'];

/** Where the command's word is on the line: after the program's own options. */
function commandWordIndex(argv: readonly string[]): number {
  let i = 2;
  for (;;) {
    const w = argv[i];
    if (w === undefined) return i;
    if (PROGRAM_VALUED.includes(w)) i += 2;
    else if (PROGRAM_VALUED.some((o) => w.startsWith(`${o}=`))) i += 1;
    else return i;
  }
}

/** The commands a run needs: the one it names (and the board, the program's default), none for the version, or all. */
export function commandsFor(argv: readonly string[]): typeof COMMANDS {
  const first = argv[commandWordIndex(argv)];
  if (first === undefined) return [BOARD]; // the board, with the program's options or none
  if (VERSION_FLAGS.includes(first)) return [];
  const named = COMMANDS.find((c) => c.names.includes(first));
  if (!named) return COMMANDS; // --help, help, another option, or a typo: the full program
  return named === BOARD ? [BOARD] : [named, BOARD];
}

/** The commands that take --host, as the program's own --host says (a test holds it to the commands' options). */
export const HOST_COMMANDS = ['ls', 'peek', 'attach', 'send', 'explain', 'board'];

/** `ls, peek, attach, send, explain`: the commands of HOST_COMMANDS but the board. */
const HOST_COMMAND_WORDS = HOST_COMMANDS.filter((c) => c !== 'board').join(', ');

const HOST_HELP = `with ${HOST_COMMAND_WORDS}: that command on another machine, over ssh; alone (repeatable): the board, with that machine's sessions too`;

/** Each --host given, in order (no default: the help would print it). */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * The program's options written before a command: `agent-board --host box ls` is the command's own
 * --host (the board's takes several); a command that runs here only says so, rather than running
 * here. --notify-cmd is read by the commands that have it (board, demo), and refused before others.
 */
function programOptionsFor(program: Command, command: Command): void {
  const name = command.name();
  if (program.getOptionValueSource('notifyCmd') === 'cli' && !command.options.some((o) => o.long === '--notify-cmd')) {
    throw new UserError(`--notify-cmd goes with the board (and demo), not ${name}`, EXIT.usage);
  }
  const hosts = program.opts<{ host?: string[] }>().host;
  if (!hosts) return;
  // `web --host` is the address it listens on, not a machine to reach over ssh.
  const own = HOST_COMMANDS.includes(name) ? command.options.find((o) => o.long === '--host') : undefined;
  if (!own) {
    throw new UserError(`${name} runs on this machine only (--host goes with ${HOST_COMMAND_WORDS} and the board); on ${hosts[0]}: ssh ${hosts[0]} agent-board ${name} ...`, EXIT.usage);
  }
  // A repeatable --host (the board's) takes each, through its own parser; any other, one.
  if (!own.parseArg && hosts.length > 1) throw new UserError(`${name} takes one --host, not ${hosts.length}`, EXIT.usage);
  let value: unknown = command.getOptionValue('host');
  for (const h of hosts) value = own.parseArg ? own.parseArg(h, value) : h;
  command.setOptionValueWithSource('host', value, 'cli');
}

export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('agent-board')
    .description('Run AI coding agents (or any program) in sessions that outlive your terminal.')
    .version('0.1.0')
    // The program's options go before the command (`--host box ls`); after it they are the command's own.
    .enablePositionalOptions()
    .option('--host <[user@]host>', HOST_HELP, collect)
    .exitOverride()
    .configureOutput(COMMANDER_OUTPUT);
  const wanted = argv.length > 2 ? commandsFor(argv) : COMMANDS;
  for (const register of await Promise.all(wanted.map((c) => c.load()))) register(program);
  // The top-level help (its help command and examples) is only ever shown by the whole program: a
  // run of one command has no use for them. After the commands: they would take it as their own.
  if (wanted === COMMANDS) dressTopLevelHelp(program);
  program.hook('preSubcommand', programOptionsFor);
  const settle = (c: Command): void => {
    c.exitOverride().configureOutput({ ...COMMANDER_OUTPUT, outputError: commanderErrorOutput(c) });
    c.commands.forEach(settle);
  };
  settle(program);
  return program;
}

/**
 * A first word that names no command (`agent-board lss`, `agent-board help lss`): one line with a
 * guess. commander's parse would hand the word to the board, the program's own action.
 */
function refuseUnknownCommand(program: Command, argv: readonly string[]): void {
  const at = commandWordIndex(argv);
  const word = argv[at] === 'help' ? argv[at + 1] : argv[at];
  if (word === undefined || word.startsWith('-')) return;
  if (program.commands.some((c) => c.name() === word || c.aliases().includes(word))) return;
  const names = program.createHelp().visibleCommands(program).flatMap((c) => [c.name(), ...c.aliases()]);
  throw new UserError(`unknown command "${word}"${didYouMean(word, names)}; see: agent-board --help`, EXIT.usage);
}

/**
 * `help chat post` is `chat post --help`: commander's help command reads one word, and this way
 * only the command asked about is loaded. An unknown word is left for refuseUnknownCommand.
 */
function helpAsOption(argv: readonly string[]): readonly string[] {
  const at = commandWordIndex(argv);
  const named = argv[at + 1];
  if (argv[at] !== 'help' || named === undefined || !COMMANDS.some((c) => c.names.includes(named))) return argv;
  return [...argv.slice(0, at), ...argv.slice(at + 1), '--help'];
}

/** Runs the CLI; every failure is one line on stderr and an exit code that says what kind. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    const line = helpAsOption(argv);
    const program = await buildProgram(line);
    refuseUnknownCommand(program, line);
    await program.parseAsync(line);
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
