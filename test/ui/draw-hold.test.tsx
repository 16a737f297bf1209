/**
 * A change that comes right after a draw (the once-a-second age tick) is drawn as soon as the
 * board's draw gate lets it (src/ui/draw-gate.ts: the last draw's cost, here on a clock that
 * does not move while drawing, so DRAW_HOLD_MIN_MS), not held back by Ink's own throttle, which
 * started its 8 ms hold again on the change. The board runs on a fake clock: the age tick and
 * the hold are timers of it, and what is written after each step is read at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { DRAW_HOLD_MIN_MS } from '../../src/ui/draw-gate.js';
import { FakeTime } from '../helpers/fake-time.js';
import { FakeFeed, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';
import type { RenderCounter } from '../../src/ui/contexts/RenderCountContext.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

/**
 * React renders a state update in a task of its scheduler (setImmediate, in Node): wait for
 * `done` through immediates alone, so that no real timer (Ink's hold is one) runs meanwhile.
 */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

describe('a change right after the age tick', () => {
  it('is on the terminal once the hold after the tick is over, without waiting on Ink', async () => {
    const time = new FakeTime(Date.now());
    // Printed 5 s ago: the rows' ages read in seconds, so the list ticks every second.
    const at = new Date(time.now() - 5000).toISOString();
    const sessions = Array.from({ length: 8 }, (_, i) => session({ name: `s-${i}`, lastOutputAt: at, previewLine: `line of ${i}` }));
    const feed = new FakeFeed(sessions);
    const rendered: string[] = [];
    const counter: RenderCounter = { rendered: (part, id) => void (part === 'row' && id && rendered.push(id)) };
    m = mountBoard(feed, { cols: 160, rows: 20, time: { clock: time, scheduler: time }, counter });
    await eventually(m.out, () => expect(m!.out.text()).toContain('line of 7'));
    await new Promise((r) => setTimeout(r, 50)); // the first frames' follow-ups are done

    for (let round = 0; round < 3; round++) {
      let from = m.out.written.length;
      time.advance(1000); // the age tick: the rows' ages move on a second, and that is drawn at once
      await until(() => m!.out.written.length > from);
      expect(m.out.written.slice(from)).toContain(`${6 + round}s`);

      from = m.out.written.length;
      rendered.length = 0;
      feed.setSessions(feed.sessions.map((s, i) => (i === 3 ? { ...s, previewLine: `new line ${round}` } : s)));
      await until(() => rendered.includes(sessions[3]!.id)); // rendered and committed (the commit follows in the same task)
      // Inside the hold after the tick's draw: committed, not drawn yet...
      expect(m.out.written.slice(from)).not.toContain(`new line ${round}`);
      time.advance(DRAW_HOLD_MIN_MS);
      // ...and drawn when it ends, in the timer of the board's own clock.
      expect(m.out.written.slice(from)).toContain(`new line ${round}`);
    }
  });
});
