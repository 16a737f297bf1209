/** How a run that failed ends, in every entry of the CLI (main.ts, attach-main.ts): one line on stderr and an exit code that says what kind. */
import { EXIT, UserError } from '../state/errors.js';
import { printErr } from './print.js';

/** A failure of the command itself (not of commander's parse, which main.ts handles first). */
export function reportFailure(err: unknown): void {
  if (err instanceof UserError) {
    printErr(`agent-board: ${err.message}\n`);
    process.exitCode = err.exitCode;
    return;
  }
  printErr(`agent-board: unexpected error: ${(err as Error).stack ?? err}\n`);
  process.exitCode = EXIT.failure;
}
