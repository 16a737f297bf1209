/**
 * The board draws what changed: one session's change renders its row alone (React.memo on the
 * row, the feed's view objects kept while unchanged, column widths kept as one object), a
 * preview update renders no row (nor the list: it is memoized too), and a change of the widths
 * (a longer name) renders them all.
 * Rows are counted through RenderCountContext as the board renders them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import type { RenderCounter } from '../../src/ui/contexts/RenderCountContext.js';
import { FakeFeed, screen, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Counter implements RenderCounter {
  rows = new Map<string, number>();
  /** Renders of the list itself (src/ui/components/SessionList.tsx). */
  lists = 0;
  /** Renders of the other parts that count themselves (the header, the footer). */
  parts = new Map<string, number>();
  rendered(part: string, id?: string): void {
    if (part === 'row' && id) this.rows.set(id, (this.rows.get(id) ?? 0) + 1);
    else if (part === 'list') this.lists++;
    else this.parts.set(part, (this.parts.get(part) ?? 0) + 1);
  }
  reset(): void {
    this.rows.clear();
    this.parts.clear();
    this.lists = 0;
  }
  get total(): number {
    return [...this.rows.values()].reduce((a, b) => a + b, 0);
  }
}

/** 40 sessions at 200x50 (all on screen), none printed in the last minute, so no age ticks while we count. */
function board() {
  const sessions = Array.from({ length: 40 }, (_, i) => session({ name: `s-${String(i).padStart(2, '0')}`, previewLine: `line of ${i}` }));
  const feed = new FakeFeed(sessions);
  const counter = new Counter();
  m = mountBoard(feed, { cols: 200, rows: 50, counter });
  return { feed, counter, sessions };
}

describe('one change, one row rendered', () => {
  it("one session's new line renders its row alone, and the screen shows it", async () => {
    const { feed, counter, sessions } = board();
    await eventually(m!.out, () => expect(m!.out.text()).toContain('line of 39'));
    await sleep(100);
    for (const k of [3, 17, 31]) {
      counter.reset();
      feed.setSessions(feed.sessions.map((s, i) => (i === k ? { ...s, previewLine: `new line ${k}` } : s)));
      await eventually(m!.out, () => expect(m!.out.text()).toContain(`new line ${k}`));
      await sleep(50);
      expect(Object.fromEntries(counter.rows)).toEqual({ [sessions[k]!.id]: 1 });
      // Nor the header (the same counts) nor the footer (the same hints).
      expect(Object.fromEntries(counter.parts)).toEqual({});
    }
  });

  it('a state change (busy) renders that row alone; moving the selection renders the two rows it leaves and enters', async () => {
    const { feed, counter, sessions } = board();
    await eventually(m!.out, () => expect(m!.out.text()).toContain('line of 39'));
    await sleep(100);
    counter.reset();
    feed.setSessions(feed.sessions.map((s, i) => (i === 5 ? { ...s, activity: 'busy' } : s)));
    await eventually(m!.out, () => expect(m!.out.lines()[0]).toContain('1 busy'));
    await sleep(50);
    expect(Object.fromEntries(counter.rows)).toEqual({ [sessions[5]!.id]: 1 });
    expect(counter.parts.get('header')).toBe(1); // its counts changed
    counter.reset();
    m!.stdin.press('j');
    await eventually(m!.out, () => expect(m!.out.text()).toMatch(/› ● s-01/));
    await sleep(50);
    expect(Object.fromEntries(counter.rows)).toEqual({ [sessions[0]!.id]: 1, [sessions[1]!.id]: 1 });
  });

  it('a preview update renders no row', async () => {
    const { feed, counter, sessions } = board();
    await eventually(m!.out, () => expect(feed.previewFor.at(-1)).toBe(sessions[0]!.id));
    await sleep(100);
    counter.reset();
    feed.setScreen(screen(sessions[0]!.id, ['$ make', 'all done']));
    await eventually(m!.out, () => expect(m!.out.text()).toContain('all done'));
    await sleep(50);
    expect(counter.total).toBe(0);
    // Nor does it go through the list (40 rows compared) at all: the same state, the same sessions.
    expect(counter.lists).toBe(0);
    // A session's change does.
    feed.setSessions(feed.sessions.map((s, i) => (i === 7 ? { ...s, previewLine: 'news' } : s)));
    await eventually(m!.out, () => expect(m!.out.text()).toContain('news'));
    expect(counter.lists).toBeGreaterThanOrEqual(1);
  });

  it('a longer name widens the name column: then every row is rendered (the widths changed)', async () => {
    const { feed, counter } = board();
    await eventually(m!.out, () => expect(m!.out.text()).toContain('line of 39'));
    await sleep(100);
    counter.reset();
    feed.setSessions(feed.sessions.map((s, i) => (i === 2 ? { ...s, name: 'a-much-longer-name' } : s)));
    await eventually(m!.out, () => expect(m!.out.text()).toContain('a-much-longer-name'));
    await sleep(50);
    expect(counter.rows.size).toBe(40);
  });
});
