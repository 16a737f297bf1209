/**
 * The board's log, `<home>/board.log` (0600, in the home ensurePrivateDir made 0700): what only a
 * developer needs when the board misbehaves (a feed callback that threw, a runner's bad frame), one
 * line per event with an ISO stamp from the board's clock, appended. A user is told what they should
 * know in the board's footer; this is the rest. Kept bounded: past BOARD_LOG_MAX_BYTES it starts over,
 * so a board left running for weeks cannot fill the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import { ensurePrivateDir } from '../state/home.js';

/** A log over this size is truncated before the next line: old lines matter least. */
export const BOARD_LOG_MAX_BYTES = 1024 * 1024;

export const boardLogFile = (home: string): string => path.join(home, 'board.log');

/** Where the board writes lines a developer needs. */
export interface BoardLog {
  write(line: string): void;
}

/**
 * The real log file. A write that fails (disk full, the home gone) is given to `onWriteError` once
 * per failure streak: the caller shows it in the footer, since the log cannot hold it.
 */
export class FileBoardLog implements BoardLog {
  private readonly file: string;
  private failing = false;

  constructor(home: string, private readonly clock: Clock, private readonly onWriteError: (message: string) => void = () => undefined) {
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
      this.onWriteError(`cannot write ${this.file}: ${(err as Error).message}`);
    }
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0; // not made yet: appendFileSync makes it
  }
}
