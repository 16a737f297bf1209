/**
 * The real board on the real feed, with real runners: a line a session prints is on the board's
 * screen promptly, in the preview for the selected session (its live stream) and on the row for
 * another (pushed on the status link by its runner). Timed from the signal that makes the
 * program print to the write of the frame that shows the line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import type { SessionView } from '../../src/state/host-store.js';
import { destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let home: string;
let feed: LiveBoardFeed | null = null;
let m: Mounted | null = null;
beforeEach(() => {
  home = makeHome('ab-live-board-');
});
afterEach(async () => {
  await m?.unmount();
  m = null;
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

/** A shell loop that prints MARK-<tag>-<n> on each SIGUSR1. */
const marker = (tag: string) => ['--', 'sh', '-c', `i=0; trap 'i=$((i+1)); echo MARK-${tag}-$i' USR1; echo READY-${tag}; while :; do sleep 600 & p=$!; wait $p; kill $p 2>/dev/null; done`];
const SAMPLES = 6;

/** Resolves with the time of the first write to the board's terminal that holds `text`. */
function frameWith(mm: Mounted, text: string): Promise<number> {
  return new Promise((resolve) => {
    const write = mm.out.write.bind(mm.out);
    mm.out.write = (data: string | Uint8Array, ...rest: never[]) => {
      if (String(data).includes(text)) {
        mm.out.write = write;
        resolve(performance.now());
      }
      return write(data, ...rest);
    };
  });
}

async function timeMarks(mm: Mounted, s: SessionView, tag: string): Promise<number[]> {
  const ms: number[] = [];
  for (let n = 1; n <= SAMPLES; n++) {
    const shown = frameWith(mm, `MARK-${tag}-${n}`);
    const t0 = performance.now();
    process.kill(s.childPid!, 'SIGUSR1');
    ms.push((await shown) - t0);
    await new Promise((r) => setTimeout(r, 60));
  }
  return ms.sort((a, b) => a - b);
}

describe('the real board, real runners', () => {
  it('a printed line reaches the preview, and another session’s line its row, within a few frames', async () => {
    const first = newSession(home, ['--name', 'first', ...marker('a')]);
    const second = newSession(home, ['--name', 'second', ...marker('b')]);
    const f = (feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler }));
    m = mountBoard(f, { cols: 160, rows: 30 });
    const view = (id: string) => f.sessions.find((s) => s.id === id);
    await waitFor('both connected', () => view(first)?.runnerAlive && view(second)?.runnerAlive && view(second)?.previewLine === 'READY-b');
    await eventually(m.out, () => expect(m!.out.text()).toMatch(/── first .*\n(.*\n)*.*READY-a/), 5000);

    const preview = await timeMarks(m, view(first)!, 'a');
    const row = await timeMarks(m, view(second)!, 'b');
    console.log(`printed line to the frame: preview ${preview.map((x) => x.toFixed(1)).join(' ')} ms; row ${row.map((x) => x.toFixed(1)).join(' ')} ms`);
    await eventually(m.out, () => expect(m!.out.text()).toContain(`MARK-b-${SAMPLES}`));
    expect(m.out.text()).toContain(`MARK-a-${SAMPLES}`);
    // The aims are a frame (row) and 20 ms (preview), measured by bench/board.mjs; a loaded CI
    // machine gets slack here, but not the 50 ms feed delay, 34 ms Ink hold or 250 ms file write of before.
    const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
    expect(median(preview)).toBeLessThan(60);
    expect(median(row)).toBeLessThan(60);
  });
});
