/**
 * Texts shaped as ASCII for Ink's measure (src/ui/ink/ascii-shape.ts): a shaped text draws what
 * Ink draws of the same text as a plain <Text>, cell for cell (a preview line at its pane's width
 * and cut narrower; runs of styled parts: a row's marker run, the preview's title, the header's
 * counts and the footer's hints, where they fit and where Ink cuts them; box drawing, accents,
 * arrows, and the ones that cannot be shaped: wide, combining, emoji), and what Ink measures is
 * ASCII: a row's glyphs and a preview line of box drawing reach Ink's Output as `x`s (a row's
 * glyphs not at all: src/ui/ink/list-lines.ts), the real characters put back only in the frame.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads): the styles' escape
// sequences are around the shapes, and the real characters must go back between them.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import { Box, render, Text } from 'ink';
import type { ReactElement } from 'react';
import InkOutput from '../../node_modules/ink/build/output.js';
import { asciiShape, unshape } from '../../src/ui/ink/ascii-shape.js';
import { ShapedLine, ShapedRun, type RunPart } from '../../src/ui/ink/ShapedText.js';
import type { SessionView } from '../../src/state/host-store.js';
import { FakeFeed, screen, session } from './fakes.js';
import { cells, eventually, FakeStdin, FakeStdout } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rows = (): SessionView[] => [
  session({ name: 'alpha', activity: 'busy', previewLine: 'compiling ████░░ 33%' }),
  session({ name: 'beta', activity: 'waiting', previewLine: '│ > Do you want to proceed? ❯ 1. Yes │' }),
  session({ name: 'gamma', activity: 'idle', previewLine: 'naïve café' }),
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

/** The cells of `node` drawn by Ink in a terminal of `cols` x `lines`. */
async function draw(node: ReactElement, cols: number, lines: number): Promise<string[]> {
  const out = new FakeStdout(cols, lines + 1);
  const ink = render(node, { stdin: new FakeStdin() as never, stdout: out as never, stderr: out as never, exitOnCtrlC: false, patchConsole: false });
  await sleep(40);
  await out.flush();
  const got = cells(out);
  ink.unmount();
  await ink.waitUntilExit();
  return got;
}

const plainRun = (parts: readonly RunPart[], wrap?: 'truncate-end') => (
  <Text wrap={wrap}>
    {parts.map((p, i) => (p.color || p.bold || p.dimColor ? <Text key={i} color={p.color} bold={p.bold} dimColor={p.dimColor}>{p.text}</Text> : p.text))}
  </Text>
);

/** Runs as the board draws them: a row's marker run, the preview's title, the header's counts, the footer's hints. */
const RUNS: readonly RunPart[][] = [
  [{ text: '›', color: 'cyan', bold: true }, { text: '*', color: 'cyan', bold: true }, { text: '◐', color: 'yellow' }, { text: ' ' }],
  [{ text: '── alpha ', dimColor: true }, { text: '(busy)', color: 'yellow', bold: true }, { text: ' claude 80x24 ', dimColor: true }],
  [{ text: 'agent-board', bold: true }, { text: ' 3 sessions' }, { text: '  ' }, { text: '◆', color: 'magenta', bold: true }, { text: ' 1 waiting' }, { text: '  ' }, { text: '●', color: 'green' }, { text: ' 2 idle' }],
  [{ text: '↑↓ select  Enter attach  → more  ? help  q quit', dimColor: true }],
  [{ text: 'Ça marche: déjà vu ✓ ✗ ◆ → ← ↑ ↓', color: 'green' }],
  [{ text: 'wide 日本 and 👍 emoji ☔', color: 'red' }],
];

describe('texts shaped as ASCII for Ink', () => {
  for (const width of [80, 24]) {
    it(`a preview line draws as a plain <Text wrap="truncate-end"> does, ${width} wide`, async () => {
      const column = (line: (l: string) => ReactElement) => (
        <Box flexDirection="column" width={width}>
          {PREVIEW.map((l, i) => (
            <Box key={i} width={width} height={1}>
              {line(l)}
            </Box>
          ))}
        </Box>
      );
      const shaped = await draw(column((l) => <ShapedLine line={l} width={width} />), width + 10, PREVIEW.length);
      const plain = await draw(column((l) => <Text wrap="truncate-end">{l}</Text>), width + 10, PREVIEW.length);
      expect(shaped).toEqual(plain);
    });

    it(`a run of styled parts draws as plain <Text>s do, where it fits and where Ink cuts it, ${width} wide`, async () => {
      const column = (run: (parts: RunPart[], fits: boolean) => ReactElement) => (
        <Box flexDirection="column" width={width}>
          {RUNS.map((parts, i) => {
            const fits = parts.reduce((w, p) => w + p.text.length, 0) <= width;
            return (
              <Box key={i} width={width} height={1}>
                {run(parts, fits)}
              </Box>
            );
          })}
        </Box>
      );
      const shaped = await draw(column((parts, fits) => <ShapedRun parts={parts} fits={fits} wrap="truncate-end" />), width + 10, RUNS.length);
      const plain = await draw(column((parts) => plainRun(parts, 'truncate-end')), width + 10, RUNS.length);
      expect(shaped).toEqual(plain);
    });
  }

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
      // The rows' glyphs do not reach Ink at all: the list is one text of blanks (src/ui/ink/list-lines.ts).
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
