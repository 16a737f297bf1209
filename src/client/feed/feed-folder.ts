/**
 * The board feed's view of the sessions folder: which session folders appeared and went since
 * the last look. A folder whose host.json is not there yet (`new` is writing it) is looked at
 * again a few times before the feed gives up on it; a later change of the folder brings it back.
 */
import fs from 'node:fs';
import { toDisposable, type MutableDisposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { sessionsDir } from '../../state/paths.js';
import { readRecord } from './feed-records.js';

export interface FolderScan {
  /** Known sessions whose folder is gone. */
  gone: string[];
  /** New sessions with a readable host.json. */
  appeared: HostRecord[];
  /** Some new folder has no host.json yet and is worth another look soon. */
  lookAgain: boolean;
}

export class SessionsFolder {
  /** Folders without a host.json yet, and how often we looked. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly home: string,
    /** How many looks a folder without host.json gets. */
    private readonly pendingTries: number,
  ) {}

  scan(known: ReadonlySet<string> | ReadonlyMap<string, unknown>): FolderScan {
    let names: string[] = [];
    try {
      names = fs.readdirSync(sessionsDir(this.home));
    } catch {
      // gone: every session with it (names stays empty, so each is reported gone)
    }
    const present = new Set(names);
    const gone = [...known.keys()].filter((id) => !present.has(id));
    for (const id of this.pending.keys()) if (!present.has(id)) this.pending.delete(id);
    const appeared: HostRecord[] = [];
    let lookAgain = false;
    for (const id of names) {
      if (known.has(id)) continue;
      const rec = readRecord(this.home, id);
      if (rec) {
        this.pending.delete(id);
        appeared.push(rec);
        continue;
      }
      const tries = (this.pending.get(id) ?? 0) + 1;
      this.pending.set(id, tries);
      if (tries <= this.pendingTries) lookAgain = true;
    }
    return { gone, appeared, lookAgain };
  }
}

/**
 * Watches the sessions folder into `slot`: `changed` on every event. A watch that cannot be had,
 * or that breaks, leaves the slot empty, for the caller's sweep to watch again.
 */
export function watchSessionsFolder(home: string, slot: MutableDisposable, changed: () => void): void {
  try {
    const w = fs.watch(sessionsDir(home), changed);
    const held = toDisposable(() => w.close());
    w.on('error', () => {
      if (slot.value === held) slot.clear();
      else w.close();
    });
    slot.value = held;
  } catch {
    slot.clear();
  }
}
