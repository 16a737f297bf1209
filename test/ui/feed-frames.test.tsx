import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FakeFeed, screen, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

/** Longer than Ink's frame interval (33 ms): a draw held back by it has come by then. */
const SETTLE_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * (A new session in the stacked layout can take two: the list grows, and the
 * state learns its new height after the draw, for scrolling.)
 *
 * Ink lays out and renders the whole screen on every React commit (about 20 ms
 * for 100 sessions at 200x50 on a slow machine) and holds the next draw back
 * for its frame interval: a feed change that took two commits cost twice the
 * CPU and showed a frame interval late.
 */
describe('one change from the feed, one draw', () => {
  it('a session turning idle: its row and the header count change in the one draw', async () => {
    const busy = session({ name: 'alpha', activity: 'busy' });
    const feed = new FakeFeed([busy, session({ name: 'beta' })]);
    m = mountBoard(feed, { cols: 160, rows: 20 });
    await eventually(m.out, () => expect(m!.out.lines()[0]).toContain('1 busy'));
    await sleep(SETTLE_MS);
    const before = m.draws();
    feed.setSessions([{ ...busy, activity: 'idle' }, feed.sessions[1]!]);
    await sleep(SETTLE_MS);
    expect(m.draws() - before).toBe(1);
    expect(m.out.lines()[0]).toContain('2 idle');
    expect(m.out.lines()[0]).not.toContain('busy');
  });

  it('a new session (the list as tall as the body, side by side): one draw', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' }), session({ name: 'beta' })]);
    m = mountBoard(feed, { cols: 160, rows: 20 });
    await eventually(m.out, () => expect(m!.out.lines()[0]).toContain('2 sessions'));
    await sleep(SETTLE_MS);
    const before = m.draws();
    feed.setSessions([...feed.sessions, session({ name: 'gamma' })]);
    await sleep(SETTLE_MS);
    expect(m.draws() - before).toBe(1);
    expect(m.out.lines()[0]).toContain('3 sessions');
    expect(m.out.text()).toContain('gamma');
  });

  it('a preview update: one draw each', async () => {
    const a = session({ name: 'alpha' });
    const feed = new FakeFeed([a]);
    m = mountBoard(feed, { cols: 100, rows: 20 });
    await eventually(m.out, () => expect(feed.previewFor.at(-1)).toBe(a.id));
    await sleep(SETTLE_MS);
    for (const text of ['first screen', 'second screen', 'third screen']) {
      const before = m.draws();
      feed.setScreen(screen(a.id, [text]));
      await sleep(SETTLE_MS);
      expect(m.draws() - before).toBe(1);
      expect(m.out.text()).toContain(text);
    }
  });
});
