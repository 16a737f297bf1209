import { Command, CommanderError } from 'commander';
import { EXIT, UserError } from '../state/errors.js';
import { registerAttach } from './commands/attach.js';
import { registerBoard } from './commands/board.js';
import { registerBridge } from './commands/bridge.js';
import { registerChat } from './commands/chat.js';
import { registerDemo } from './commands/demo.js';
import { registerHook } from './commands/hook.js';
import { registerKill } from './commands/kill.js';
import { registerLs } from './commands/ls.js';
import { registerMcp } from './commands/mcp.js';
import { registerNew } from './commands/new.js';
import { registerPeek } from './commands/peek.js';
import { registerRename } from './commands/rename.js';
import { registerRestart } from './commands/restart.js';
import { registerRm } from './commands/rm.js';
import { registerRunner } from './commands/runner.js';
import { registerSend } from './commands/send.js';

export function buildProgram(): Command {
  const program = new Command('agent-board')
    .description('Run AI coding agents (or any program) in sessions that outlive your terminal.')
    .version('0.1.0')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  // registerBoard comes last: it makes the board the program's own action.
  for (const register of [registerNew, registerLs, registerPeek, registerAttach, registerKill, registerRm, registerRename, registerRestart, registerSend, registerChat, registerMcp, registerHook, registerDemo, registerRunner, registerBridge, registerBoard]) {
    register(program);
  }
  program.commands.forEach((c) => c.exitOverride());
  return program;
}

/** Runs the CLI; every failure is one line on stderr and an exit code that says what kind. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its message (or help); keep its code, 2 for usage errors.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
      return;
    }
    if (err instanceof UserError) {
      process.stderr.write(`agent-board: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`agent-board: unexpected error: ${(err as Error).stack ?? err}\n`);
    process.exitCode = EXIT.failure;
  }
}

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) void main(process.argv);
