/**
 * The list's rows drawn as the lines of one text (src/ui/ink/list-lines.ts) look as Ink lays out
 * the same parts as <Text>s in boxes (test/ui/reference-row.tsx): the board in rows of every state
 * (selected, picked, busy, waiting, exited, lost, starting, disk full, stale with a host column, a
 * worktree, wide and combining text, emoji, a name longer than its column), side by side and
 * stacked, and on a list too narrow for the fixed columns (then Ink's cut at the end), is the same
 * cell for cell (colours, bold, dim, inverse) as the reference rows drawn by Ink alone. A row's
 * text with characters Ink gives a cell and a terminal none (joiners, variation selectors, skin
 * tones) shows without them, in its columns. And Ink is given one text for the whole list, a
 * blank per row.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import InkOutput from '../../node_modules/ink/build/output.js';
import { ago } from '../../src/core/board/ago.js';
import type { SessionView } from '../../src/state/host-store.js';
import type { RowInput } from '../../src/ui/ink/list-lines.js';
import { boardLayout } from '../../src/ui/layout.js';
import { rowColumns } from '../../src/ui/row-columns.js';
import { FakeFeed, screen, session } from './fakes.js';
import { cells, eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';
import { referenceCells } from './reference-row.js';

let m: Mounted | null = null;
afterEach(async () => {
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
  session({ name: 'rocket 🚀', previewLine: '✅ done ☔ rain' }),
];

/** The list as the board drew it, and as Ink draws the same rows' parts: the cells of each list row, the list's width across. */
async function drawBoth(cols: number, rowsN: number): Promise<{ board: string[][]; reference: string[][] }> {
  const list = rows();
  const feed = new FakeFeed(list);
  feed.setScreen(screen(list[0]!.id, ['$ make', 'done'], { cursorY: 1 }));
  m = mountBoard(feed, { cols, rows: rowsN });
  await eventually(m.out, () => expect(m!.out.text()).toContain('$ make'));
  m.stdin.press(' '); // alpha picked
  m.stdin.press('j'); // beta selected
  await eventually(m.out, () => expect(m!.out.lines().filter((l) => l.startsWith(' *'))).toHaveLength(1));
  feed.setSessions(feed.sessions.map((s, i) => (i === 2 ? { ...s, name: 'rang' } : s)));
  await eventually(m.out, () => expect(m!.out.text()).toContain('rang'));
  await sleep(60); // Ink's held-back draw, if any
  await m.out.flush();
  const screenCells = cells(m.out);
  await m.unmount();
  m = null;
  // What the list shows: the header, the lost sessions' line, then its rows from the top.
  const shown = feed.sessions;
  const layout = boardLayout(cols, rowsN, shown.length, 1);
  const columns = rowColumns(shown, layout.listWidth);
  const now = Date.now();
  const inputs = shown.slice(0, layout.listRows).map((s, i): RowInput => ({ session: s, selected: i === 1, marked: false, picked: i === 0, since: ago(s.lastOutputAt ?? s.createdAt, now), limit: '', columns }));
  // A blank cell is a blank cell, written (the board's, before the pane beside it) or not (the reference's end).
  const across = (row: string) => row.split('|').slice(0, layout.listWidth).map((c) => c.replace(/^∅\//, ' /'));
  const board = screenCells.slice(2, 2 + inputs.length).map(across);
  const reference = (await referenceCells(inputs, layout.listWidth, layout.sideBySide)).map(across);
  return { board, reference };
}

describe('the list drawn as lines', () => {
  for (const [cols, rowsN, what] of [
    [200, 50, 'side by side'],
    [100, 40, 'stacked'],
    [44, 20, 'too narrow for the fixed columns (cut at the end, as Ink cuts them)'],
    [40, 20, 'cut inside the state column'],
    [22, 20, 'cut inside the name column'],
  ] as const) {
    it(`draws each row as Ink lays out its parts, ${what} (${cols}x${rowsN})`, async () => {
      const { board, reference } = await drawBoth(cols, rowsN);
      expect(board.length).toBeGreaterThan(5);
      for (let i = 0; i < board.length; i++) expect(board[i], `row ${i}`).toEqual(reference[i]);
    });
  }

  it('a row whose text holds what a terminal gives no cell shows it without, in its columns', async () => {
    const zw = session({ name: 'zw\u200d', previewLine: 'a\u200bb\u200dc\ufe0f d 👍🏽 e\u0301t\u0301e' });
    const plain = session({ name: 'plain', previewLine: 'abc d' });
    m = mountBoard(new FakeFeed([plain, zw]), { cols: 100, rows: 20 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('plain'));
    const lines = m.out.lines();
    const row = lines.find((l) => l.includes(' zw '))!;
    const other = lines.find((l) => l.includes(' plain '))!;
    expect(row).toContain('abc d 👍 éte');
    // The state and age columns, and the last line, start where the other row's do.
    expect(row.indexOf('idle')).toBe(other.indexOf('idle'));
    expect(row.indexOf('abc d')).toBe(other.indexOf('abc d'));
  });

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
      expect(written).toContain(Array(list.length).fill(' ').join('\n'));
      // No row's text reaches Ink on its own.
      expect(written.filter((t) => t.includes('compiling') || t.includes('gamma') || t.includes('abc d'))).toEqual([]);
    } finally {
      Output.prototype.write = original;
    }
  });
});
