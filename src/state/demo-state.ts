/**
 * What the home remembers of the demo (`<home>/demo.json`, 0600): that the board's walkthrough
 * line was dismissed (it does not come back), and that `agent-board demo --stop` ended the demo
 * (the bare board does not start it again on its own). A missing or unreadable file is nothing
 * remembered: the worst it costs is the line shown once more.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic, writing } from './write-errors.js';

export interface DemoMarks {
  /** The walkthrough line on the board was hidden (its key). */
  walkthroughDismissed?: boolean;
  /** When `demo --stop` ended the demo (ISO time). */
  stoppedAt?: string;
}

export const demoStateFile = (home: string) => path.join(home, 'demo.json');

export function readDemoMarks(home: string): DemoMarks {
  try {
    const raw = JSON.parse(fs.readFileSync(demoStateFile(home), 'utf8')) as unknown;
    if (!raw || typeof raw !== 'object') return {};
    const o = raw as Record<string, unknown>;
    return {
      ...(o.walkthroughDismissed === true ? { walkthroughDismissed: true } : {}),
      ...(typeof o.stoppedAt === 'string' ? { stoppedAt: o.stoppedAt } : {}),
    };
  } catch {
    return {}; // missing or unreadable: nothing remembered (see above)
  }
}

/** Adds to what is remembered; written atomically, 0600, no temporary file left. A full disk (and the like) is cannotWriteError's line. */
export function writeDemoMarks(home: string, marks: DemoMarks): void {
  const file = demoStateFile(home);
  writing("the demo's state", file, () => writeFileAtomic(file, JSON.stringify({ ...readDemoMarks(home), ...marks }) + '\n'));
}
