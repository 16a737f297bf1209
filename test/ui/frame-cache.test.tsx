/**
 * The frame cache (src/ui/ink/frame-cache.ts) draws the same screen as Ink: the same board, in
 * the states that exercise each of its paths (rows of plain writes, wide and zero-width
 * characters, clipped views, a scrolled chat log, a worktree row, the stacked layout), is drawn
 * with the cache and with Ink's own get() (what Ink does without it), and the two terminals
 * compared cell by cell (character, width,
 * colours, bold, dim, inverse, underline). And the cache is really in: a change to one row
 * rebuilds that row and takes the others from the last frame.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import InkOutput from '../../node_modules/ink/build/output.js';
import { frameCache, inkOwnGet } from '../../src/ui/ink/frame-cache.js';
import type { SessionView } from '../../src/state/host-store.js';
import { FakeChatFeed, FakeFeed, screen, session } from './fakes.js';
import { cells, eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

const Output = InkOutput as unknown as { prototype: { get: unknown } };
/** Output.get as the board draws: the cache. */
const cachedGet = Output.prototype.get;

let m: Mounted | null = null;
afterEach(async () => {
  Output.prototype.get = cachedGet;
  await m?.unmount();
  m = null;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const wide = (): SessionView[] => [
  session({ name: 'alpha', activity: 'busy', previewLine: 'compiling 3/12 ████░░░░ 33%' }),
  session({ name: 'beta', activity: 'waiting', previewLine: '│ > Do you want to proceed? ❯ 1. Yes │' }),
  session({ name: 'gamma', previewLine: 'naïve café — e\u0301t\u0301e\u0301 (combining marks)' }),
  session({ name: '日本語のセッション', previewLine: '漢字とかな、全角の行 🎉 emoji 👍🏽 done' }),
  session({ name: 'delta', status: 'exited', exitCode: 1, previewLine: 'make: *** [all] Error 2' }),
  session({ name: 'tree', worktree: { repo: '/r', path: '/r/.wt/x', branch: 'feature/x', base: 'main' } as never, previewLine: 'ok' }),
  session({ name: 'zw', previewLine: 'a\u200bb\u200dc\ufe0f d' }),
];

const previewLines = ['╭──────────────────────────────╮', '│ > type here                  │', '╰──────────────────────────────╯', '  ⏵⏵ accept edits on (shift+tab)', 'tab\there', '漢字 and ascii mixed ✓ ✗ ◆'];

/** Draws the board twice, with the cache and with Ink's own get(), after `setup`, and returns both screens. */
async function both(setup: (m: Mounted) => Promise<void>, feed: () => FakeFeed, opts: { cols: number; rows: number; chat?: () => FakeChatFeed }): Promise<[string[], string[]]> {
  const screens: string[][] = [];
  for (const get of [cachedGet, inkOwnGet]) {
    Output.prototype.get = get;
    m = mountBoard(feed(), { cols: opts.cols, rows: opts.rows, chat: opts.chat?.() });
    await setup(m);
    await sleep(60); // Ink's held-back draw, if any
    await m.out.flush();
    screens.push(cells(m.out));
    await m.unmount();
    m = null;
  }
  return [screens[0]!, screens[1]!];
}

function boardWith(sessions: () => SessionView[]) {
  return () => {
    const list = sessions();
    const f = new FakeFeed(list);
    f.setScreen(screen(list[0]!.id, previewLines, { cursorY: 1, cursorX: 4 }));
    return f;
  };
}

const shows = (text: string) => async (mm: Mounted) => {
  await eventually(mm.out, () => expect(mm.out.text()).toContain(text));
};

describe('the frame cache draws what Ink draws', () => {
  it('is installed, and a change to one row rebuilds that row only', async () => {
    expect(frameCache.installed).toBe(true);
    expect(inkOwnGet).not.toBe(cachedGet); // the screens below are compared with Ink's own
    const list = wide();
    const feed = new FakeFeed(list);
    m = mountBoard(feed, { cols: 200, rows: 50 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('alpha'));
    await sleep(100);
    const before = { ...frameCache };
    feed.setSessions(list.map((s, i) => (i === 2 ? { ...s, previewLine: 'a new line for gamma' } : s)));
    await eventually(m.out, () => expect(m!.out.text()).toContain('a new line for gamma'));
    expect(frameCache.misses - before.misses).toBe(1);
    expect(frameCache.hits - before.hits).toBeGreaterThanOrEqual(40);
  });

  it('the list and the preview side by side at 200x50, with wide, zero-width and box-drawing text', async () => {
    const [a, b] = await both(shows('tree'), boardWith(wide), { cols: 200, rows: 50 });
    expect(a).toEqual(b);
  });

  it('the stacked layout at 80x24, the selection moved and a row marked', async () => {
    const move = async (mm: Mounted) => {
      await shows('tree')(mm);
      mm.stdin.press('j');
      mm.stdin.press(' ');
      await eventually(mm.out, () => expect(mm.out.lines()[0]).toContain('marked'));
    };
    const [a, b] = await both(move, boardWith(wide), { cols: 80, rows: 24 });
    expect(a).toEqual(b);
  });

  it('the help (a clipped view)', async () => {
    const help = async (mm: Mounted) => {
      await shows('tree')(mm);
      mm.stdin.press('?');
      await eventually(mm.out, () => expect(mm.out.text()).toContain('Esc close'));
    };
    const [a, b] = await both(help, boardWith(wide), { cols: 100, rows: 20 });
    expect(a).toEqual(b);
  });

  it('a chat log scrolled back (clipped, its first lines above the pane)', async () => {
    const chat = () => {
      const c = new FakeChatFeed();
      c.post('default', ...Array.from({ length: 40 }, (_, i) => ({ from: 'alpha', kind: 'agent' as const, text: `message ${i + 1} ✓ 日本 ${'long '.repeat(i % 7)}` })));
      return c;
    };
    const scrolled = async (mm: Mounted) => {
      await shows('tree')(mm);
      mm.stdin.press('c');
      await eventually(mm.out, () => expect(mm.out.text()).toContain('message 40'));
      mm.stdin.press(KEY.pageUp);
      await eventually(mm.out, () => expect(mm.out.text()).toContain('scrolled back'));
    };
    const [a, b] = await both(scrolled, boardWith(wide), { cols: 90, rows: 24, chat });
    expect(a).toEqual(b);
  });
});
