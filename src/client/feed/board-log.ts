/**
 * The board's log, `<home>/board.log` (0600, in the home ensurePrivateDir made 0700): what only a
 * developer needs when the board misbehaves (a feed callback that threw, a runner's bad frame), one
 * line per event with an ISO stamp from the board's clock, appended. A user is told what they should
 * know in the board's footer; this is the rest. Kept bounded: past BOARD_LOG_MAX_BYTES it starts over,
 * so a board left running for weeks cannot fill the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import { Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import { ensurePrivateDir } from '../../state/home.js';
import { writeFailureCode } from '../../state/write-errors.js';
import { cannotWriteMessage } from '../../core/write-failure.js';

/** A log over this size is truncated before the next line: old lines matter least. */
export const BOARD_LOG_MAX_BYTES = 1024 * 1024;

export const boardLogFile = (home: string): string => path.join(home, 'board.log');

/** Where the board writes lines a developer needs. */
export interface BoardLog {
  write(line: string): void;
  /** A line could not be written (once per failure streak): the board says so in its footer, since the log cannot hold it. */
  readonly onWriteError: Event<string>;
}

/** The real log file. */
export class FileBoardLog implements BoardLog, Disposable {
  private readonly file: string;
  private readonly writeErrors = new Emitter<string>();
  readonly onWriteError: Event<string> = this.writeErrors.event;
  private failing = false;

  constructor(home: string, private readonly clock: Clock) {
    this.file = boardLogFile(ensurePrivateDir(home, 'agent-board home'));
  }

  write(line: string): void {
    const text = `${new Date(this.clock.now()).toISOString()} ${line.replace(/\r?\n/g, ' | ')}\n`;
    try {
      if (sizeOf(this.file) + text.length > BOARD_LOG_MAX_BYTES) fs.truncateSync(this.file, 0);
      fs.appendFileSync(this.file, text, { mode: 0o600 });
      this.failing = false;
    } catch (err) {
      if (this.failing) return; // told once already for this streak: the first message said it
      this.failing = true;
      const code = writeFailureCode(err);
      this.writeErrors.fire(code !== null ? cannotWriteMessage('the board log', this.file, code, 'it logs again by itself') : `cannot write ${this.file}: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    this.writeErrors.dispose();
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0; // not made yet: appendFileSync makes it
  }
}
