/**
 * Ink's frame, built row by row with the rows that did not change taken from the last frame.
 *
 * Ink (6.8.0, pinned exactly in package.json) turns its tree into text in `Output.get()`: it
 * fills a grid of one object per cell (10,000 at 200x50), tokenizes every text written into it,
 * and turns each row back into a string, on every frame, whatever changed. For the board that was
 * about three quarters of a frame's time (17 of 23 ms at p50, 100 sessions at 200x50), when one
 * row had changed. Ink has no public hook for this, so this module wraps `Output.prototype.get`
 * (Ink's build/output.js, which its package exports do not name: imported by its path in
 * node_modules, statically, so that the bundle (scripts/bundle.mjs) holds one Output, the one its
 * Ink draws with; a path worked out at run time made the bundle patch a second copy read from disk,
 * and the real board drew without the cache: test/integration/bundle-frame-cache.test.ts).
 *
 * Rows are independent in `get()`: a text written at (x, y) only ever fills row y onwards, one
 * line per row, and the innermost clip is applied per write. So a row is a pure function of the
 * writes that land on it (their x, their line after the transformers, and the clip), and this
 * wrapper keys each row by exactly that: when the key is the last frame's, the row is the last
 * frame's. A changed row is its writes with spaces between when they do not overlap (plainRow:
 * the same characters and styles, without get()'s grid of cells and style diff per cell, which
 * cost half a millisecond a row), else it goes through the original `get()` on a one-row Output,
 * with the same arguments the original would have used. The screen is the same, cell for cell
 * (test/ui/frame-cache.test.tsx draws the board with it and with Ink's own get, and compares).
 */
// The module Ink itself loads (same file: node resolves the symlinks, esbuild the same path).
import InkOutput from '../../../node_modules/ink/build/output.js';

/** What Ink's Output holds (build/output.js). */
interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
type Transformer = (line: string, index: number) => string;
type Operation = { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] } | { type: 'clip'; clip: Clip } | { type: 'unclip' };
/** Output's memo of what it measured and tokenized (per Output, so per frame, in Ink: here shared). */
interface OutputCaches {
  styledChars: Map<string, unknown>;
  getStringWidth(text: string): number;
}
interface OutputInstance {
  width: number;
  height: number;
  operations: Operation[];
  caches: OutputCaches;
  get(): { output: string; height: number };
}
type OutputClass = (new (o: { width: number; height: number }) => OutputInstance) & { prototype: OutputInstance };

/**
 * One row's writes, as the original get() would do them on a one-row Output; `shown`: the line
 * after the transformers; `index`: the line's among its write's (what the transformers were given).
 */
type RowOp = { x: number; line: string; shown: string; transformers: Transformer[]; index: number; clip: Clip | undefined };

/** The last frame's rows, for one shape of frame (Ink makes one Output per frame, of the screen's size). */
interface Frame {
  keys: (readonly RowOp[])[];
  rows: string[];
}

/** Frames of this many shapes are remembered (a resize, a second board in the tests); the oldest goes first. */
const SHAPES_KEPT = 4;

/**
 * The rows built afresh share one Output's caches (each character's width, each line's styled
 * characters), which Ink throws away with every frame; started again once it holds this many
 * lines, so a session printing flat out does not grow it without end.
 */
const CACHED_LINES_MAX = 4000;
let shared: OutputCaches | null = null;

/**
 * Whether the cache is in, and how often rows came from the last frame or were built: for the
 * tests and the benchmark.
 */
export const frameCache = { installed: false, hits: 0, misses: 0 };

const frames = new Map<string, Frame>();

function frameFor(width: number, height: number): Frame {
  const shape = `${width}x${height}`;
  let f = frames.get(shape);
  if (!f) {
    if (frames.size >= SHAPES_KEPT) frames.delete(frames.keys().next().value!);
    f = { keys: [], rows: [] };
    frames.set(shape, f);
  }
  return f;
}

/** Whether the clip applies across (x) and whether row y is inside it (y), as get() decides. */
const clipsX = (c: Clip | undefined): c is Clip => typeof c?.x1 === 'number' && typeof c.x2 === 'number';
const clipsY = (c: Clip | undefined): c is Clip & { y1: number; y2: number } => typeof c?.y1 === 'number' && typeof c.y2 === 'number';

/** Each write split into its lines, each line on its row with what get() would apply to it. */
function rowOps(ops: readonly Operation[], height: number): RowOp[][] {
  const rows: RowOp[][] = Array.from({ length: height }, () => []);
  const clips: Clip[] = [];
  for (const op of ops) {
    if (op.type === 'clip') clips.push(op.clip);
    else if (op.type === 'unclip') clips.pop();
    else {
      const clip = clips.at(-1);
      const lines = op.text.split('\n');
      // Vertical clipping drops the lines outside [y1, y2); the transformers see the index among those kept.
      const from = clipsY(clip) && op.y < clip.y1 ? clip.y1 - op.y : 0;
      // get() stops at the first line off the grid: one that starts above it writes nothing at all.
      if (op.y + from < 0) continue;
      for (let i = from; i < lines.length; i++) {
        const y = op.y + i;
        if ((clipsY(clip) && y >= clip.y2) || y >= height) break;
        const line = lines[i]!;
        let shown = line;
        for (const t of op.transformers) shown = t(shown, i - from);
        rows[y]!.push({ x: op.x, line, shown, transformers: op.transformers, index: i - from, clip: clipsX(clip) ? clip : undefined });
      }
    }
  }
  return rows;
}

/** The transformers of a line, called with the index it had in its write (a one-row Output would say 0). */
function indexed(transformers: Transformer[], index: number): Transformer[] {
  if (transformers.length === 0 || index === 0) return transformers;
  return transformers.map((t) => (line: string) => t(line, index));
}

/** Whether two rows' writes make the same text: the same places, clips and lines, before and after the transformers. */
function sameOps(a: readonly RowOp[] | undefined, b: readonly RowOp[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const p = a[i]!;
    const q = b[i]!;
    if (p.x !== q.x || p.line !== q.line || p.shown !== q.shown || p.clip?.x1 !== q.clip?.x1 || p.clip?.x2 !== q.clip?.x2) return false;
  }
  return true;
}

/**
 * Text whose every character get() counts as wide as string-width does (SGR sequences, ASCII,
 * Latin, punctuation, arrows, box drawing, shapes, symbols): where a write ends is then its
 * width. get() gives a zero-width character (a combining mark, a joiner) a cell of its own.
 */
const ONE_CELL_EACH = /^[\x1b\x20-\x7e\u00a0-\u02ff\u2010-\u205f\u2070-\u2bff]*$/;

/**
 * A row whose writes do not overlap, left to right and unclipped (every row of the board's list
 * and preview), all but the last of them ONE_CELL_EACH: its writes as they are, with spaces
 * between them. The same cells and styles as
 * get() makes of them, without its grid of cells and its style diff per cell (most of the time
 * of a row); null for any other row, which goes through get().
 */
function plainRow(ops: readonly RowOp[], caches: OutputCaches): string | null {
  let row = '';
  let at = 0;
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (o.clip || o.x < at) return null;
    if (o.x > at) row += ' '.repeat(o.x - at);
    row += o.shown;
    // Where the last write ends matters to no other.
    if (i < ops.length - 1) {
      if (!ONE_CELL_EACH.test(o.shown)) return null;
      at = o.x + cellsOf(o.shown, caches);
    }
  }
  return row.trimEnd();
}

/**
 * Where get() ends a ONE_CELL_EACH text: it puts each character (outside the escape sequences)
 * at the next cell and moves on by max(1, its string-width), per character, memoized. The text's
 * own string-width took the slow path for every new text past ASCII (a row's glyphs: 47 times a
 * frame when every row changed).
 */
function cellsOf(text: string, caches: OutputCaches): number {
  let cells = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1b) {
      // A CSI sequence (the styles' SGR; sanitizeAnsi leaves no other): up to its final byte.
      i += 2;
      while (i < text.length && (text.charCodeAt(i) < 0x40 || text.charCodeAt(i) > 0x7e)) i++;
    } else cells += c < 0x7f ? 1 : Math.max(1, caches.getStringWidth(text[i]!));
  }
  return cells;
}

/** The shared caches, started again once they hold CACHED_LINES_MAX lines. */
function cachesFor(Output: OutputClass): OutputCaches {
  if (!shared || shared.styledChars.size > CACHED_LINES_MAX) shared = new Output({ width: 1, height: 1 }).caches;
  return shared;
}

/** How wide Ink takes `text` to be (string-width, memoized in the shared caches: the slow path once per text, not once per frame). */
export function inkTextWidth(text: string): number {
  return Output ? cachesFor(Output).getStringWidth(text) : text.length;
}

/** A one-row Output with the row's writes, as get() would have done them (the innermost clip's x around each). */
function oneRow(Output: OutputClass, width: number, ops: readonly RowOp[]): OutputInstance {
  const one = new Output({ width, height: 1 });
  one.caches = cachesFor(Output);
  for (const o of ops) {
    if (o.clip) one.operations.push({ type: 'clip', clip: { x1: o.clip.x1, x2: o.clip.x2 } });
    one.operations.push({ type: 'write', x: o.x, y: 0, text: o.line, transformers: indexed(o.transformers, o.index) });
    if (o.clip) one.operations.push({ type: 'unclip' });
  }
  return one;
}

function install(Output: OutputClass): void {
  const original = Output.prototype.get;
  Output.prototype.get = function cachedGet(this: OutputInstance) {
    const { width, height } = this;
    const frame = frameFor(width, height);
    const perRow = rowOps(this.operations, height);
    const out: string[] = new Array<string>(height);
    for (let y = 0; y < height; y++) {
      const ops = perRow[y]!;
      if (sameOps(frame.keys[y], ops)) {
        out[y] = frame.rows[y]!;
        frameCache.hits++;
        continue;
      }
      frameCache.misses++;
      const row = plainRow(ops, cachesFor(Output)) ?? original.call(oneRow(Output, width, ops)).output;
      frame.keys[y] = ops;
      frame.rows[y] = row;
      out[y] = row;
    }
    return { output: out.join('\n'), height };
  };
  frameCache.installed = true;
}

// At load, before anything renders: Board.tsx imports this module. Not Ink's shape (another
// version): Ink draws as it always did, and test/ui/frame-cache.test.tsx fails.
const Output = typeof InkOutput === 'function' && typeof InkOutput.prototype.get === 'function' ? (InkOutput as unknown as OutputClass) : null;
/**
 * Ink's own get(), as it was before the cache wrapped it (what the rows the cache cannot build
 * go through): the tests draw the board with it to compare (test/ui/frame-cache.test.tsx).
 */
export const inkOwnGet = Output?.prototype.get ?? null;
if (Output) install(Output);
