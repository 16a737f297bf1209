/**
 * Texts shaped as ASCII for Ink's measure (src/ui/ascii-shape.ts): the board's screen is the
 * same, cell for cell, with the shaping and without it (rows in every state, marked, picked and
 * selected; preview lines of box drawing, accents, arrows, and the ones that cannot be shaped:
 * wide, combining, emoji), and what Ink measures is ASCII: a row's glyphs and a preview line of
 * box drawing reach Ink's Output as `x`s (a row's glyphs not at all: src/ui/list-lines.ts), the real characters put back only in the frame.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads): the styles' escape
// sequences are around the shapes, and the real characters must go back between them.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import InkOutput from '../../node_modules/ink/build/output.js';
import { asciiShape, asciiShaping, unshape } from '../../src/ui/ascii-shape.js';
import type { SessionView } from '../../src/state/host-store.js';
import { FakeFeed, screen, session } from './fakes.js';
import { cells, eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  asciiShaping.enabled = true;
  await m?.unmount();
  m = null;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rows = (): SessionView[] => [
  session({ name: 'alpha', activity: 'busy', previewLine: 'compiling ████░░ 33%' }),
  session({ name: 'beta', activity: 'waiting', previewLine: '│ > Do you want to proceed? ❯ 1. Yes │' }),
  session({ name: 'gamma', activity: 'idle', previewLine: 'naïve café' }),
  session({ name: 'delta', status: 'starting', activity: undefined }),
  session({ name: 'eps', status: 'exited', exitCode: 0 }),
  session({ name: 'zeta', status: 'exited', exitCode: 2 }),
  session({ name: 'eta', status: 'lost' }),
  session({ name: 'a-name-much-longer-than-the-column-is', activity: 'busy', previewLine: 'ok' }),
];

const PREVIEW = [
  '╭──────────────────────────────╮',
  '│ > type here ✓ ✗ ◆ → ← ↑ ↓    │',
  '╰──────────────────────────────╯',
  '  ⏵⏵ accept edits on (shift+tab)',
  'Ça marche: déjà vu, «guillemets», ±½ §',
  '漢字 and ascii mixed', // wide: not shaped
  'e\u0301te\u0301 combining', // combining marks: not shaped
  'emoji 👍🏽 and ☔ done', // emoji: not shaped
  'plain ascii line',
  '─'.repeat(200), // past the pane's width: cut to it
];

function feedOf(): FakeFeed {
  const list = rows();
  const f = new FakeFeed(list);
  f.setScreen(screen(list[0]!.id, PREVIEW, { cursorY: 9 }));
  return f;
}

/** The screen after marking and moving, with the shaping on or off. */
async function draw(enabled: boolean, cols: number, rowsN: number): Promise<string[]> {
  asciiShaping.enabled = enabled;
  m = mountBoard(feedOf(), { cols, rows: rowsN });
  await eventually(m.out, () => expect(m!.out.text()).toContain('plain ascii line'));
  m.stdin.press(' '); // alpha picked
  m.stdin.press('j'); // beta selected
  await eventually(m.out, () => expect(m!.out.lines()[0]).toContain('marked'));
  await sleep(60); // Ink's held-back draw, if any
  await m.out.flush();
  const got = cells(m.out);
  await m.unmount();
  m = null;
  return got;
}

describe('texts shaped as ASCII for Ink', () => {
  it('draw the same screen side by side at 200x50', async () => {
    const on = await draw(true, 200, 50);
    const off = await draw(false, 200, 50);
    expect(on).toEqual(off);
  });

  it('draw the same screen stacked at 80x24', async () => {
    const on = await draw(true, 80, 24);
    const off = await draw(false, 80, 24);
    expect(on).toEqual(off);
  });

  it('reach Ink as ASCII: the rows\' glyphs and the preview lines that can be shaped', async () => {
    const written: string[] = [];
    const Output = InkOutput as unknown as { prototype: { write(x: number, y: number, text: string, o: unknown): void } };
    const original = Output.prototype.write;
    Output.prototype.write = function (this: unknown, x, y, text, o) {
      written.push(text);
      original.call(this, x, y, text, o);
    };
    try {
      const feed = feedOf();
      m = mountBoard(feed, { cols: 200, rows: 50 });
      await eventually(m.out, () => expect(m!.out.text()).toContain('plain ascii line'));
      await sleep(60);
      written.length = 0;
      feed.setSessions([...feed.sessions]); // one more frame: every text written again
      await eventually(m.out, () => expect(written.length).toBeGreaterThan(0));
      await sleep(60);
      const frame = new Set(written);
      const plain = new Set(written.map((t) => t.replace(/\x1b\[[0-9;]*m/g, '')));
      // The real characters are on the screen ...
      for (const text of ['│ > type here ✓ ✗ ◆ → ← ↑ ↓    │', 'Ça marche: déjà vu, «guillemets», ±½ §', '› ◐ alpha', '  ◆ beta']) expect(m.out.text()).toContain(text);
      // ... and Ink measured their shapes.
      expect(frame).toContain('x'.repeat(32));
      expect(frame).toContain('xa marche: dxjx vu, xguillemetsx, xx x');
      // The rows' glyphs do not reach Ink at all: the list is one text of blanks (src/ui/list-lines.ts).
      // What cannot be shaped goes as it is.
      expect(frame).toContain('漢字 and ascii mixed');
      expect(frame).toContain('e\u0301te\u0301 combining');
      expect(frame).toContain('emoji 👍🏽 and ☔ done');
      // No glyph of a row reaches Ink past ASCII.
      for (const glyph of ['◐', '◆', '●', '◌', '✓', '✗', '›']) expect([...plain].filter((t) => t.length <= 4 && t.includes(glyph))).toEqual([]);
    } finally {
      Output.prototype.write = original;
    }
  });
});

describe('asciiShape and unshape', () => {
  it('shape one x per character past ASCII, and refuse what is not one cell on its own', () => {
    expect(asciiShape('plain')).toBe('plain');
    expect(asciiShape('a─b')).toBe('axb');
    expect(asciiShape('déjà')).toBe('dxjx');
    for (const t of ['日本', 'e\u0301', '👍', 'a\u200bb', '☔', 'x\ufe0f']) expect(asciiShape(t)).toBeNull();
  });

  it('put the real characters back between the styles\' escape sequences', () => {
    const styled = '\x1b[1m\x1b[36mx\x1b[39m\x1b[22m \x1b[33mx\x1b[39m ';
    expect(unshape(styled, '› ◐ ')).toBe('\x1b[1m\x1b[36m›\x1b[39m\x1b[22m \x1b[33m◐\x1b[39m ');
  });
});
