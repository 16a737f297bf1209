/** The web server's log, `<home>/web/server.log` (0600): one time-stamped line per event. */
import fs from 'node:fs';
import type { Clock } from '../../core/clock.js';
import { isoTime } from '../../core/iso-time.js';

/** Past this the log is cut back to its newer half, so a server left running for months stays small. */
const LOG_MAX_BYTES = 1024 * 1024;

export function serverLogger(file: string, clock: Clock): (line: string) => void {
  return (line) => {
    try {
      fs.appendFileSync(file, `${isoTime(clock.now())} ${line}\n`, { mode: 0o600 });
      if (fs.statSync(file).size > LOG_MAX_BYTES) {
        const text = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(file, text.slice(text.indexOf('\n', text.length / 2) + 1), { mode: 0o600 });
      }
    } catch {
      // A log that cannot be written (a full disk) is the one thing dropped: the server goes on.
    }
  };
}
