/**
 * The demo's walkthrough on the board: while sessions of room demo are on it, lines above the
 * list say what the demo shows and the keys that matter; they stay until h hides them (and the
 * home is told to remember), and only then.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { initialBoardState } from '../../src/core/board/board-state.js';
import { FakeFeed, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const demo = () => [
  session({ name: 'alice', agent: 'demo', room: 'demo' }),
  session({ name: 'bob', agent: 'demo', room: 'demo' }),
  session({ name: 'shell', room: 'demo' }),
];
const text = () => m!.out.text();

describe('the demo walkthrough', () => {
  it('at 80 columns: what the demo shows and Enter, Ctrl-\\ and q, above the list, without pushing a session off it', async () => {
    let hidden = 0;
    m = mountBoard(new FakeFeed(demo()), { cols: 80, rows: 24, rememberWalkthroughHidden: () => void hidden++ });
    await eventually(m.out, () => expect(text()).toContain('› ● alice'));
    const lines = m.out.lines();
    expect(lines.slice(1, 4)).toEqual([
      "demo: alice and bob (scripted, no AI) answer each other in room demo's chat",
      'until the loop guard pauses it',
      'Enter attaches · Ctrl-\\ comes back · q quits (sessions keep running) · h hides',
    ]);
    for (const n of ['alice', 'bob', 'shell']) expect(lines.some((l) => new RegExp(`^. ● ${n} `).test(l))).toBe(true);
    // Still there after the footer's message came and went, and after moving about.
    m.stdin.press('j');
    await new Promise((r) => setTimeout(r, 300));
    expect(text()).toContain('h hides');
    m.stdin.press('h');
    await eventually(m.out, () => expect(text()).not.toContain('h hides'));
    expect(m.out.lines()[1]).toMatch(/^ {2}● alice /);
    expect(text()).toContain('the demo line is hidden for good; agent-board demo --stop ends the demo');
    expect(hidden).toBe(1);
  });

  it('on one line at 200 columns; not without a session of room demo; not once hidden', async () => {
    m = mountBoard(new FakeFeed(demo()), { cols: 200, rows: 50 });
    await eventually(m.out, () => expect(m!.out.lines()[1]).toBe("demo: alice and bob (scripted, no AI) answer each other in room demo's chat until the loop guard pauses it · Enter attaches · Ctrl-\\ comes back · q quits (sessions keep running) · h hides"));
    await m.unmount();
    m = mountBoard(new FakeFeed([session({ name: 'api', agent: 'claude' })]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(text()).toContain('› ● api'));
    expect(text()).not.toContain('h hides');
    m.stdin.press('h'); // nothing to hide: h does nothing
    await new Promise((r) => setTimeout(r, 200));
    expect(text()).not.toContain('hidden');
    await m.unmount();
    m = mountBoard(new FakeFeed(demo()), { cols: 80, rows: 24, initialState: initialBoardState({ walkthroughHidden: true }) });
    await eventually(m.out, () => expect(text()).toContain('› ● alice'));
    expect(text()).not.toContain('h hides');
  });

  it('a home that cannot remember is said in the footer; the line goes for this board all the same', async () => {
    m = mountBoard(new FakeFeed(demo()), { cols: 80, rows: 24, rememberWalkthroughHidden: () => { throw new Error('EROFS: read-only file system'); } });
    await eventually(m.out, () => expect(text()).toContain('h hides'));
    m.stdin.press('h');
    await eventually(m.out, () => expect(text()).toContain('demo line hidden here; the home could not remember it: EROFS'));
    expect(text()).not.toContain('h hides');
  });
});
