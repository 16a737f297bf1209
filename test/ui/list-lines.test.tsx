/**
 * The list's rows drawn as the lines of one text (src/ui/list-lines.ts) look as <SessionRow/>
 * draws them: the board in rows of every state (selected, marked for attention, picked, busy,
 * waiting, exited, lost, starting, disk full, stale with a host column, a worktree, wide and combining
 * text, a name longer than its column), side by side and stacked, and on a terminal too narrow
 * for the fixed columns (then the rows are <SessionRow/>s), and a row whose text Ink measures
 * otherwise than the board does (drawn as a <SessionRow/> among the lines), is the same cell for cell (colours,
 * bold, dim, inverse) with the lines and without them. And with them, Ink is given one text for
 * the whole list, a blank per row.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import InkOutput from '../../node_modules/ink/build/output.js';
import { listLines } from '../../src/ui/list-lines.js';
import type { SessionView } from '../../src/state/host-store.js';
import { FakeFeed, screen, session } from './fakes.js';
import { cells, eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  listLines.enabled = true;
  await m?.unmount();
  m = null;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rows = (): SessionView[] => [
  session({ name: 'alpha', activity: 'busy', previewLine: 'compiling ████░░ 33%' }),
  session({ name: 'beta', activity: 'waiting', previewLine: '│ > Do you want to proceed? ❯ 1. Yes │' }),
  session({ name: 'gamma', activity: 'idle', previewLine: 'naïve café — e\u0301t\u0301e\u0301' }),
  session({ name: '日本語のセッション', previewLine: '漢字とかな、全角の行 🎉 emoji 👍🏽 done' }),
  session({ name: 'delta', status: 'starting', activity: undefined }),
  session({ name: 'eps', status: 'exited', exitCode: 0 }),
  session({ name: 'zeta', status: 'exited', exitCode: 2, previewLine: 'make: *** [all] Error 2' }),
  session({ name: 'eta', status: 'lost' }),
  session({ name: 'far', host: 'build-box', stale: true, previewLine: 'remote line' }),
  session({ name: 'tree', worktree: { repo: '/r', path: '/r/.wt/x', branch: 'feature/x', base: 'main' } as never, previewLine: 'ok' }),
  session({ name: 'a-name-much-longer-than-the-column-is', activity: 'busy', previewLine: 'x'.repeat(300) }),
  session({ name: 'full', activity: 'idle', cannotWrite: 'ENOSPC', previewLine: 'still here' }),
  session({ name: 'zw', previewLine: 'a\u200bb\u200dc\ufe0f d' }),
];

/** The screen after picking, marking and moving, with the lines on or off. */
async function draw(enabled: boolean, cols: number, rowsN: number): Promise<string[]> {
  listLines.enabled = enabled;
  const list = rows();
  const feed = new FakeFeed(list);
  feed.setScreen(screen(list[0]!.id, ['$ make', 'done'], { cursorY: 1 }));
  m = mountBoard(feed, { cols, rows: rowsN });
  await eventually(m.out, () => expect(m!.out.text()).toContain('$ make'));
  m.stdin.press(' '); // alpha picked
  m.stdin.press('j'); // beta selected
  await eventually(m.out, () => expect(m!.out.lines()[0]).toContain('marked'));
  feed.setSessions(feed.sessions.map((s, i) => (i === 2 ? { ...s, name: 'rang' } : s)));
  await eventually(m.out, () => expect(m!.out.text()).toContain('rang'));
  await sleep(60); // Ink's held-back draw, if any
  await m.out.flush();
  const got = cells(m.out);
  await m.unmount();
  m = null;
  return got;
}

describe('the list drawn as lines', () => {
  for (const [cols, rowsN, what] of [
    [200, 50, 'side by side'],
    [100, 40, 'stacked'],
    [44, 20, 'too narrow for the fixed columns (rows drawn as <SessionRow/>)'],
  ] as const) {
    it(`draws the same screen as <SessionRow/>, ${what} (${cols}x${rowsN})`, async () => {
      const on = await draw(true, cols, rowsN);
      const off = await draw(false, cols, rowsN);
      expect(on).toEqual(off);
    });
  }

  it('a row whose runner cannot write its record says disk full in its state column, the preview title idle · disk full', async () => {
    const full = session({ name: 'full', activity: 'idle', cannotWrite: 'ENOSPC', previewLine: 'still here' });
    const feed = new FakeFeed([full]);
    feed.setScreen(screen(full.id, ['$ still here'], { cursorY: 0 }));
    m = mountBoard(feed, { cols: 120, rows: 20 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('(idle · disk full)'));
    const row = m.out.lines().find((l) => l.includes('full ') && l.includes('still here'));
    expect(row).toMatch(/●.* full +shell +disk full /);
    expect(m.out.text()).not.toMatch(/lost/);
  });

  it('gives Ink one text of blanks for the whole list', async () => {
    const written: string[] = [];
    const Output = InkOutput as unknown as { prototype: { write(x: number, y: number, text: string, o: unknown): void } };
    const original = Output.prototype.write;
    Output.prototype.write = function (this: unknown, x, y, text, o) {
      written.push(text);
      original.call(this, x, y, text, o);
    };
    try {
      const list = rows();
      m = mountBoard(new FakeFeed(list), { cols: 200, rows: 50 });
      await eventually(m.out, () => expect(m!.out.text()).toContain('compiling'));
      // The rows before the last (whose zero-width space text-width.ts and Ink measure apart: a <SessionRow/>).
      expect(written).toContain(Array(list.length - 1).fill(' ').join('\n'));
      expect(written.filter((t) => t.includes('a\u200bb')).length).toBeGreaterThan(0);
      // No other row's text reaches Ink on its own.
      expect(written.filter((t) => t.includes('compiling') || t.includes('gamma'))).toEqual([]);
    } finally {
      Output.prototype.write = original;
    }
  });
});
