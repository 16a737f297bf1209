/**
 * The claim one `revive` takes on a session while it brings it back (sessions/<id>/revive.lock),
 * so two revives at once (a login unit and a board, say) never start two runners on one socket
 * and one journal. Held across the runner's start (seconds, async), unlike file-lock.ts's
 * millisecond sections: an O_EXCL create holding the claimer's pid, boot and start time, so a
 * claim left by a revive that died (or by the boot before) is known as stale and taken over.
 * Taking over goes through file-lock.ts's removeIfStill (`revive.lock.break`, O_EXCL, held for a
 * few syscalls), which removes the claim only if it still holds what was judged stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import { removeIfStill } from './file-lock.js';
import { isPidAlive } from './host-store.js';
import { sessionDir } from './paths.js';
import { bootId, processStartTime } from './proc-identity.js';
import { cannotWriteError, writeFailureCode } from './write-errors.js';

interface Claimer { pid: number; boot: string | null; start: string | null }

/** The claim is ours until `release()`; or another live revive holds it (its pid, 0 when not known yet). */
export type Claim = { ok: true; release(): void } | { ok: false; holder: number };

/** A claim file without a claimer in it this old was left half-made by a revive that died as it wrote. */
const HALF_MADE_STALE_MS = 5_000;

const claimFile = (home: string, id: string) => path.join(sessionDir(home, id), 'revive.lock');

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null; // gone (released meanwhile): the caller tries again
  }
}

function parse(text: string): Claimer | null {
  try {
    const c = JSON.parse(text) as Partial<Claimer>;
    return typeof c.pid === 'number' ? { pid: c.pid, boot: c.boot ?? null, start: c.start ?? null } : null;
  } catch {
    return null; // half-written: judged by its age
  }
}

/** Whether the claimer still runs: this boot, a live pid that is still that process. */
function alive(c: Claimer): boolean {
  if (!isPidAlive(c.pid)) return false;
  if (c.boot !== null && c.boot !== bootId()) return false;
  return c.start === null || processStartTime(c.pid) === c.start;
}

function ageMs(file: string, clock: Clock): number {
  try {
    return clock.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0; // gone meanwhile: not stale, the next try sees it gone
  }
}

/** Takes the session's revive claim, taking over a stale one; not ok while another live revive has it. */
export function claimRevive(home: string, id: string, clock: Clock): Claim {
  const file = claimFile(home, id);
  const text = JSON.stringify({ pid: process.pid, boot: bootId(), start: processStartTime('self') } satisfies Claimer);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, text);
      } catch (err) {
        // Made but not written (a full disk): ours to take away, not a half-made claim to wait out.
        fs.closeSync(fd);
        fs.rmSync(file, { force: true });
        throw err;
      }
      fs.closeSync(fd);
      return {
        ok: true,
        release: () => {
          // Only our own claim goes (a live claim is never broken, so it is ours until now).
          if (read(file) === text) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      const failed = writeFailureCode(err);
      if (failed !== null) throw cannotWriteError("the session's revive claim", file, failed, 'revive it again');
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const seen = read(file);
    if (seen === null) continue; // released meanwhile
    const holder = parse(seen);
    if (holder ? alive(holder) : ageMs(file, clock) < HALF_MADE_STALE_MS) return { ok: false, holder: holder?.pid ?? 0 };
    removeIfStill(file, seen, clock);
  }
  return { ok: false, holder: parse(read(file) ?? '')?.pid ?? 0 };
}
