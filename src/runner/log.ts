import fs from 'node:fs';

/** The runner's log: one timestamped line per event, never throws. */
export interface Logger {
  (message: string): void;
}

export function fileLogger(file: string): Logger {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'a', 0o600);
  } catch {
    fd = null;
  }
  return (message: string) => {
    if (fd === null) return;
    try {
      fs.writeSync(fd, `${new Date().toISOString()} ${message}\n`);
    } catch {
      // Nowhere left to report to; the session matters more than its log.
    }
  };
}
