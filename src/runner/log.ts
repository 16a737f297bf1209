import fs from 'node:fs';
import type { Clock } from '../core/clock.js';
import { isoTime } from '../core/iso-time.js';

/** The runner's log: one timestamped line per event, never throws. */
export interface Logger {
  (message: string): void;
}

/** Appends to `file` (0600), each line stamped from `clock`. */
export function fileLogger(file: string, clock: Clock): Logger {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'a', 0o600);
  } catch {
    // No log file (a read-only home): the runner still serves; every line after this is dropped, as below.
    fd = null;
  }
  return (message: string) => {
    if (fd === null) return;
    try {
      fs.writeSync(fd, `${isoTime(clock.now())} ${message}\n`);
    } catch {
      // Nowhere left to report to; the session matters more than its log.
    }
  };
}
