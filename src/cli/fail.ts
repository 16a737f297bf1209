/** How a run that failed ends, in every entry of the CLI (main.ts, attach-main.ts): one line on stderr and an exit code that says what kind. */
import { EXIT, UserError } from '../state/errors.js';
import { cannotWriteError, writeFailureCode } from '../state/write-errors.js';
import { printErr } from './print.js';

/** A failure of the command itself (not of commander's parse, which main.ts handles first). */
export function reportFailure(err: unknown): void {
  if (err instanceof UserError) {
    printErr(`agent-board: ${err.message}\n`);
    process.exitCode = err.exitCode;
    return;
  }
  // A write failure some path did not name (a full disk, a read-only home...): still one line, what and why, never a stack.
  const code = writeFailureCode(err);
  if (code !== null) {
    const e = err as NodeJS.ErrnoException;
    printErr(`agent-board: ${cannotWriteError('a file', e.path ?? e.syscall ?? 'unknown path', code).message}\n`);
    process.exitCode = EXIT.cannotWrite;
    return;
  }
  printErr(`agent-board: unexpected error: ${(err as Error).stack ?? err}\n`);
  process.exitCode = EXIT.failure;
}
