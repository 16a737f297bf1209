/**
 * The headless terminal and its serializer, loaded the one way that works from
 * ESM for these CommonJS packages, plus readers for the state xterm keeps but
 * does not expose, the painter that turns that state back into bytes (the
 * snapshot frame: @xterm/addon-serialize loses too much for an exact one),
 * and a workaround for an xterm bug that would wedge the model. All of it
 * uses private fields of @xterm/headless 6.0.0: the snapshot property test
 * (test/integration/snapshot-property.test.ts) fails if an upgrade moves them.
 */
import headless from '@xterm/headless';
import serialize from '@xterm/addon-serialize';
import { kittyFlagsSequence, scrollRegionSequence, trackedModesSequence, type TrackedModes } from '../core/terminal-modes.js';

export const Terminal = headless.Terminal;
export type Terminal = InstanceType<typeof headless.Terminal>;
export const SerializeAddon = serialize.SerializeAddon;
export type SerializeAddon = InstanceType<typeof serialize.SerializeAddon>;

// ---------------------------------------------------------------------------
// xterm's private state (6.0.0)

/** A charset table as xterm keeps it; undefined is plain ASCII. */
type Charset = object | undefined;

interface AttrInternals {
  fg: number;
  bg: number;
  extended: { _ext: number; urlId: number };
}

interface BufferInternals {
  x: number;
  y: number;
  ybase: number;
  scrollTop: number;
  scrollBottom: number;
  savedX: number;
  savedY: number;
  savedCurAttrData: { fg: number; bg: number };
  savedCharset: Charset;
  tabs: Record<number, boolean | undefined>;
}

interface InputHandlerInternals {
  _curAttrData: AttrInternals;
  _parser: { currentState: number };
  parse(data: string): unknown;
  eraseInDisplay(params: { params: Int32Array | number[] }, respectProtect?: boolean): boolean;
  _restrictCursor(maxCol?: number): void;
  _eraseInBufferLine(y: number, start: number, end: number, clearWrap?: boolean, respectProtect?: boolean): void;
  _resetBufferLine(y: number, respectProtect?: boolean): void;
}

interface CoreInternals {
  buffer: BufferInternals & { lines: { get(i: number): unknown } };
  buffers: { normal: BufferInternals; alt: BufferInternals };
  coreService: { isCursorHidden: boolean };
  optionsService: { rawOptions: { cursorBlink: boolean; convertEol: boolean } };
  _charsetService: { charset: Charset; glevel: number; _charsets: Charset[] };
  _inputHandler: InputHandlerInternals;
  _oscLinkService: { getLinkData(id: number): { id?: string; uri: string } | undefined };
}

function core(term: Terminal): CoreInternals {
  return (term as unknown as { _core: CoreInternals })._core;
}

/**
 * Works around an xterm 6.0.0 bug that wedges a terminal for good: ED 1
 * (`CSI 1 J`, and DECSED `CSI ? 1 J`) with the cursor in the last column
 * clears the wrap flag of "the next line" by its screen row, not its buffer
 * line, and throws when there is none (the cursor on the last row, no
 * history: a new session, or any alternate screen). The throw leaves xterm's
 * write queue stuck, so the model would never parse again, never settle, and
 * hold the PTY paused. In that one case we do the erase ourselves: the whole
 * cursor row, then every row above, as xterm would.
 */
export function patchXtermBugs(term: Terminal): void {
  const c = core(term);
  const ih = c._inputHandler;
  const eraseInDisplay = ih.eraseInDisplay;
  ih.eraseInDisplay = (params, respectProtect = false) => {
    if (params.params[0] === 1) {
      ih._restrictCursor(term.cols);
      const buf = c.buffer;
      if (buf.x + 1 >= term.cols && buf.lines.get(buf.y + 1) === undefined) {
        ih._eraseInBufferLine(buf.y, 0, term.cols, true, respectProtect);
        for (let y = buf.y; y-- > 0; ) ih._resetBufferLine(y, respectProtect);
        return true;
      }
    }
    return eraseInDisplay.call(ih, params, respectProtect);
  };
}

export interface ScrollRegion { top: number; bottom: number }

/** The active buffer's scroll region, 0-based inclusive. */
export function scrollRegionOf(term: Terminal): ScrollRegion {
  const buf = core(term).buffer;
  return { top: buf.scrollTop, bottom: buf.scrollBottom };
}

export function cursorHiddenOf(term: Terminal): boolean {
  return core(term).coreService.isCursorHidden;
}

/**
 * Whether the parser sits between sequences (its ground state). A chunk can
 * end inside an escape sequence (a real recording does); a frame taken there
 * is followed by live output that starts with the sequence's tail, which the
 * client's terminal would print as text.
 */
export function parserInGroundState(term: Terminal): boolean {
  return (core(term)._inputHandler?._parser?.currentState ?? 0) === 0;
}

// ---------------------------------------------------------------------------
// Attributes

// Bit layout of xterm's attribute words (common/buffer/Constants.ts).
const CM_MASK = 0x3000000;
const CM_P16 = 0x1000000;
const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;
const RGB_MASK = 0xffffff;
const FG_INVERSE = 0x4000000;
const FG_BOLD = 0x8000000;
const FG_UNDERLINE = 0x10000000;
const FG_BLINK = 0x20000000;
const FG_INVISIBLE = 0x40000000;
const FG_STRIKETHROUGH = 0x80000000;
const BG_ITALIC = 0x4000000;
const BG_DIM = 0x8000000;
const BG_HAS_EXTENDED = 0x10000000;
const BG_PROTECTED = 0x20000000;
const BG_OVERLINE = 0x40000000;
const FG_FLAGS = FG_INVERSE | FG_BOLD | FG_UNDERLINE | FG_BLINK | FG_INVISIBLE | FG_STRIKETHROUGH;
const BG_FLAGS = BG_ITALIC | BG_DIM | BG_PROTECTED | BG_OVERLINE;
const EXT_UNDERLINE_SHIFT = 26;

/**
 * What a cell (or the pen) looks like, with the colour bits xterm leaves
 * stale (a palette colour keeps old RGB bits) cleared, so equal looks compare
 * equal.
 */
interface Attr {
  fg: number;
  bg: number;
  /** Underline style 0-5 (only meaningful with the underline flag). */
  ul: number;
  /** Underline colour, xterm's colour word; 0 is the default. */
  ulColor: number;
  /** Hyperlink (OSC 8) as `params;uri`, '' for none. */
  link: string;
}

const DEFAULT_ATTR: Attr = { fg: 0, bg: 0, ul: 0, ulColor: 0, link: '' };

function cleanColor(word: number): number {
  const mode = word & CM_MASK;
  if (mode === CM_P16 || mode === CM_P256) return mode | (word & 0xff);
  if (mode === CM_RGB) return mode | (word & RGB_MASK);
  return 0;
}

function linkOf(term: Terminal, urlId: number): string {
  if (!urlId) return '';
  const data = core(term)._oscLinkService.getLinkData(urlId);
  if (!data) return '';
  return `${data.id !== undefined ? `id=${data.id}` : ''};${data.uri}`;
}

/**
 * @param pen whether `a` is the pen rather than a cell. A cell's extended
 *   part (underline style and colour, link) counts only when its HAS_EXTENDED
 *   bit says it was stored; the pen's underline colour and link count anyway,
 *   since the next SGR 4 or print takes them up.
 */
function attrOf(term: Terminal, a: AttrInternals, pen: boolean): Attr {
  const hasExt = (a.bg & BG_HAS_EXTENDED) !== 0;
  const ext = a.extended;
  return {
    fg: (a.fg & FG_FLAGS) | cleanColor(a.fg),
    bg: (a.bg & BG_FLAGS) | cleanColor(a.bg),
    // None without the underline flag; single without a stored style. xterm's
    // DECRC can leave the flag with a stored style of none (it restores the
    // flag, not the style): no SGR makes that, and the program asked for an
    // underline, so it is written as a single one (sgrOf).
    ul: a.fg & FG_UNDERLINE ? (hasExt ? (ext._ext >>> EXT_UNDERLINE_SHIFT) & 7 || 1 : 1) : 0,
    ulColor: pen || hasExt ? cleanColor(ext._ext) : 0,
    link: pen || hasExt ? linkOf(term, ext.urlId) : '',
  };
}

function sameAttr(a: Attr, b: Attr): boolean {
  return a === b || (a.fg === b.fg && a.bg === b.bg && a.ul === b.ul && a.ulColor === b.ulColor && a.link === b.link);
}

function colorParams(word: number, base: number, brightBase: number, extended: number): string | null {
  const c = word & RGB_MASK;
  switch (word & CM_MASK) {
    case CM_P16:
      return String(c < 8 ? base + c : brightBase + (c & 7));
    case CM_P256:
      // Kept as 38;5;n even for n < 16: xterm keeps the two apart, so must we.
      return `${extended};5;${c & 0xff}`;
    case CM_RGB:
      return `${extended};2;${(c >>> 16) & 0xff};${(c >>> 8) & 0xff};${c & 0xff}`;
    default:
      return null;
  }
}

/** SGR from a clean slate to `a` (links and DECSCA are handled apart). */
function sgrOf(a: Attr): string {
  const p = ['0'];
  const fg = colorParams(a.fg, 30, 90, 38);
  if (fg) p.push(fg);
  const bg = colorParams(a.bg, 40, 100, 48);
  if (bg) p.push(bg);
  if (a.fg & FG_BOLD) p.push('1');
  if (a.bg & BG_DIM) p.push('2');
  if (a.bg & BG_ITALIC) p.push('3');
  if (a.fg & FG_UNDERLINE) p.push(a.ul <= 1 ? '4' : `4:${a.ul}`);
  if (a.fg & FG_BLINK) p.push('5');
  if (a.fg & FG_INVERSE) p.push('7');
  if (a.fg & FG_INVISIBLE) p.push('8');
  if (a.fg & FG_STRIKETHROUGH) p.push('9');
  if (a.bg & BG_OVERLINE) p.push('53');
  // Underline colours come only as 58;5;n or 58;2;r;g;b.
  const ulMode = a.ulColor & CM_MASK;
  if (ulMode === CM_RGB) p.push(colorParams(a.ulColor, 0, 0, 58)!);
  else if (ulMode !== 0) p.push(`58;5;${a.ulColor & 0xff}`);
  return `\x1b[${p.join(';')}m`;
}

/** What an erase (ECH, EL, a scroll) leaves in a cell: the pen's background only. */
function eraseAttrOf(a: Attr): Attr {
  return { fg: 0, bg: cleanColor(a.bg), ul: 0, ulColor: 0, link: '' };
}

function isEraseAttr(a: Attr): boolean {
  return a.fg === 0 && (a.bg & ~(CM_MASK | RGB_MASK)) === 0 && a.ul === 0 && a.ulColor === 0 && a.link === '';
}

// ---------------------------------------------------------------------------
// Charsets

const DESIGNATORS = '0AB4C5RQKYE6ZH7=';
let designatorCache: Map<Charset, string> | null = null;

/**
 * Maps xterm's charset tables back to the final byte that designates them,
 * learnt once from a scratch terminal (the tables are shared module objects).
 */
function designatorOf(charset: Charset): string {
  if (!designatorCache) {
    designatorCache = new Map();
    const scratch = new Terminal({ cols: 10, rows: 2, allowProposedApi: true });
    const c = core(scratch);
    for (const d of DESIGNATORS) {
      c._inputHandler.parse(`\x1b(${d}`);
      const table = c._charsetService._charsets[0];
      if (!designatorCache.has(table)) designatorCache.set(table, d);
    }
    scratch.dispose();
  }
  return designatorCache.get(charset) ?? 'B';
}

const G_INTERMEDIATE = ['(', ')', '*', '+'];
const G_SHIFT = ['\x0f', '\x0e', '\x1bn', '\x1bo'];

// ---------------------------------------------------------------------------
// Painting

interface CellView {
  chars: string;
  width: number;
  attr: Attr;
  /** A wide character cut off in the last column, read as an empty cell. */
  cutOff?: boolean;
}

interface LineView {
  cells: CellView[];
  wrapped: boolean;
}

interface CellInternals extends AttrInternals {
  getChars(): string;
  getWidth(): number;
}

function readLine(term: Terminal, which: 'normal' | 'alternate', y: number): LineView {
  const buf = which === 'normal' ? term.buffer.normal : term.buffer.alternate;
  const line = buf.getLine(y);
  const cell = buf.getNullCell() as unknown as CellInternals;
  const cells: CellView[] = [];
  // Runs of cells share one Attr object: cheaper, and sameAttr sees it at once.
  let lastFg = 0;
  let lastBg = 0;
  let lastAttr = DEFAULT_ATTR;
  for (let x = 0; x < term.cols; x++) {
    if (!line?.getCell(x, cell as never)) {
      cells.push({ chars: '', width: 1, attr: DEFAULT_ATTR });
      continue;
    }
    const { fg, bg } = cell;
    let attr: Attr;
    if (bg & BG_HAS_EXTENDED) attr = attrOf(term, cell, false);
    else if (fg === lastFg && bg === lastBg) attr = lastAttr;
    else {
      attr = fg === 0 && bg === 0 ? DEFAULT_ATTR : attrOf(term, cell, false);
      lastFg = fg;
      lastBg = bg;
      lastAttr = attr;
    }
    const width = cell.getWidth();
    const chars = cell.getChars();
    // A wide character in the last column is one a narrowing resize cut off
    // (xterm does not reflow a screen while the other one is on), and a right
    // half with no wide character before it lost it to an overwrite or a
    // resize: no print makes either, so both are painted as empty cells, in
    // their background.
    if (width === 2 && x === term.cols - 1) cells.push({ chars: '', width: 1, attr: eraseAttrOf(attr), cutOff: true });
    else if (width === 0 && chars === '' && cells[x - 1]?.width !== 2) cells.push({ chars: '', width: 1, attr: eraseAttrOf(attr) });
    else cells.push({ chars, width, attr });
  }
  return { cells, wrapped: line?.isWrapped ?? false };
}

/** A character xterm (Unicode 6 widths) takes as two cells wide. */
const WIDE_STAND_IN = '\u4e00';

/**
 * Writes cells into a terminal we assume behaves like xterm, keeping track of
 * its pen (SGR, link, DECSCA) and of the cursor column on the current row.
 */
class Painter {
  out = '';
  private pen: Attr = DEFAULT_ATTR;
  private protectedOn = false;
  /** Cursor column on the current row; cols means a wrap is pending. */
  private x = 0;

  constructor(private readonly cols: number) {}

  /** After a sequence that moved the cursor to column `x` of some row. */
  at(x: number): void {
    this.x = x;
  }

  setPen(a: Attr): void {
    const p = this.pen;
    if (p.fg !== a.fg || p.bg !== a.bg || p.ul !== a.ul || p.ulColor !== a.ulColor) {
      this.out += sgrOf(a);
      // xterm clears DECSCA with SGR 0, other terminals do not: say it outright.
      const prot = (a.bg & BG_PROTECTED) !== 0;
      if (prot) this.out += '\x1b[1"q';
      else if (this.protectedOn) this.out += '\x1b[0"q';
      this.protectedOn = prot;
    }
    if (p.link !== a.link) this.out += `\x1b]8;${a.link || ';'}\x1b\\`;
    this.pen = a;
  }

  private column(x: number): void {
    if (this.x === x) return;
    this.out += x === 0 ? '\r' : `\x1b[${x + 1}G`;
    this.x = x;
  }

  private put(chars: string, width: number, a: Attr): void {
    this.setPen(a);
    this.out += chars;
    this.x = Math.min(this.cols, this.x + width);
  }

  /** Paints cell x (not a right half). */
  private cell(x: number, c: CellView): void {
    if (c.width === 0) {
      // A combining mark printed right after an escape sequence: xterm gives
      // it a cell of its own (it joins only what it just printed). Print it
      // the same way: after a cursor move, even one in place.
      this.setPen(c.attr);
      this.out += `\x1b[${x + 1}G${c.chars}`;
      this.x = x + 1;
      return;
    }
    this.column(x);
    this.put(c.chars, c.width, c.attr);
  }

  /** Makes `n` cells from column x empty in `a`'s background (what an erase leaves). */
  private erase(x: number, n: number, a: Attr): void {
    this.column(x);
    this.setPen(eraseAttrOf(a));
    this.out += n === 1 ? '\x1b[X' : `\x1b[${n}X`;
  }

  /**
   * An empty cell with more than a background (xterm makes them when a wide
   * character is half overwritten or pushed off the line) cannot come from
   * an erase. It comes the way xterm made it: print a wide character over
   * the cell and the next, then print into the next one in the cell's pen.
   * That leaves a space in the next cell, which the caller paints again.
   * Terminals other than xterm end up with a blank cell here too.
   */
  private oddEmpty(x: number, a: Attr): void {
    this.column(x);
    this.put(WIDE_STAND_IN, 2, DEFAULT_ATTR);
    this.column(x + 1);
    this.put(' ', 1, a);
  }

  /**
   * The last column's counterpart of oddEmpty: a wide character over the
   * last two cells, then a narrow one over its left half in the cell's pen
   * empties the right half in that pen. Then column cols-2 is painted again.
   */
  private oddEmptyLast(cells: CellView[], a: Attr): void {
    const cols = this.cols;
    this.column(cols - 2);
    this.put(WIDE_STAND_IN, 2, DEFAULT_ATTR);
    this.column(cols - 2);
    this.put(' ', 1, a);
    const owner = cells[cols - 3]?.width === 2 ? cols - 3 : cols - 2;
    const c = cells[owner];
    if (!c) return;
    if (c.chars !== '') {
      this.cell(owner, c);
    } else if (isEraseAttr(c.attr)) {
      this.erase(owner, 1, c.attr);
    }
    // Two odd empty cells side by side at the end of a line: the first stays a space.
  }

  /** Empties the last cell of a row where a stand-in was printed to wrap. */
  private emptyLast(cells: CellView[]): void {
    const a = cells[this.cols - 1]!.attr;
    if (isEraseAttr(a)) this.erase(this.cols - 1, 1, a);
    else this.oddEmptyLast(cells, a);
  }

  /**
   * Paints lines onto consecutive rows, keeping wrapped lines wrapped: the
   * line before a wrapped one ends by printing its last column, so the
   * wrapped one starts with a real wrap, as when the program wrote it.
   * `newRow(i)` moves the cursor to column 0 of line i's (blank) row.
   */
  rows(count: number, lineAt: (i: number) => LineView, newRow: (i: number) => void): void {
    const cols = this.cols;
    let standInAbove: CellView[] | null = null;
    // Lines are read one ahead (a wrap depends on the next line) and dropped once painted.
    let line = count > 0 ? lineAt(0) : null;
    for (let i = 0; i < count; i++) {
      const { cells } = line!;
      const following = i + 1 < count ? lineAt(i + 1) : null;
      const next = following?.wrapped ? following : null;
      const continues = i > 0 && line!.wrapped;
      line = following;
      // A wide character that did not fit at the end of this row: xterm
      // leaves the last cell empty in that character's pen. Printing the
      // character with the cursor on the last column does the same.
      const lastCell = cells[cols - 1]!;
      const nextFirst = next?.cells[0];
      const wideWrap = nextFirst !== undefined && nextFirst.width === 2 && lastCell.chars === '' && lastCell.width === 1 && sameAttr(lastCell.attr, nextFirst.attr);
      const end = wideWrap ? cols - 1 : cols;
      let x = 0;
      /** Column 0 holds a stand-in to replace. */
      let dirty0 = false;
      if (continues) {
        // The cursor waits at the end of the row above: this print wraps.
        // Only a printed character wraps (a combining mark does not): for an
        // empty first cell, or a lone mark, a stand-in, painted over below.
        const first = cells[0]!;
        const standIn = first.chars === '' || first.width === 0;
        if (standIn) this.put(' ', 1, first.attr);
        else this.put(first.chars, first.width, first.attr);
        this.x = standIn ? 1 : first.width;
        x = standIn ? 0 : first.width;
        dirty0 = first.chars === '';
        if (cleanColor(first.attr.bg) !== 0) {
          // A wrap on the bottom row scrolls, and the new row takes the pen's background.
          this.setPen(DEFAULT_ATTR);
          this.out += '\x1b[K';
        }
        if (standInAbove) {
          const back = this.x;
          this.out += '\x1b[A';
          this.emptyLast(standInAbove);
          this.out += '\x1b[B';
          this.column(back);
          standInAbove = null;
        }
      } else {
        newRow(i);
        this.x = 0;
      }
      /** A column holding a space from oddEmpty, to replace. */
      let dirty = dirty0 ? 0 : -1;
      while (x < end) {
        const c = cells[x]!;
        if (c.width === 0 && c.chars === '') {
          x++; // the right half of a wide character, painted with it
          continue;
        }
        if (c.chars !== '') {
          this.cell(x, c);
          // A wide character covers the next cell, whatever xterm left there
          // (see "Not reproduced" at screenFrameOf).
          x += Math.max(1, c.width);
          continue;
        }
        if (next && x === cols - 1) {
          // Only a print wraps: a stand-in now, emptied after the wrap.
          this.column(x);
          this.put(' ', 1, c.attr);
          standInAbove = cells;
          x++;
          continue;
        }
        if (!isEraseAttr(c.attr)) {
          if (x < cols - 1) {
            this.oddEmpty(x, c.attr);
            dirty = x + 1;
          } else {
            this.oddEmptyLast(cells, c.attr);
          }
          x++;
          continue;
        }
        // A run of empty cells that look alike.
        let n = 1;
        while (x + n < end && !(next && x + n === cols - 1)) {
          const d = cells[x + n]!;
          if (d.chars !== '' || d.width !== 1 || !sameAttr(d.attr, c.attr)) break;
          n++;
        }
        if (!sameAttr(c.attr, DEFAULT_ATTR) || (dirty >= x && dirty < x + n)) this.erase(x, n, c.attr);
        x += n;
      }
      if (wideWrap) this.column(cols - 1);
    }
  }
}

function cup(row: number, col: number): string {
  return row === 0 && col === 0 ? '\x1b[H' : `\x1b[${row + 1};${col + 1}H`;
}

/** Cursor, pen and charset for DECSC (or ?1049h) to save, as `b` holds them. */
function savedCursorSetup(term: Terminal, p: Painter, b: BufferInternals): { x: number; y: number } {
  const x = Math.min(b.savedX, term.cols - 1);
  const y = Math.min(Math.max(b.savedY - b.ybase, 0), term.rows - 1);
  p.out += `\x1b(${designatorOf(b.savedCharset)}` + cup(y, x);
  p.at(x);
  // DECSC keeps the pen's two attribute words, not its extended part.
  p.setPen(attrOf(term, { fg: b.savedCurAttrData.fg, bg: b.savedCurAttrData.bg & ~BG_HAS_EXTENDED, extended: { _ext: 0, urlId: 0 } }, false));
  return { x, y };
}

/** Tab stops, when a program changed them (HTS, TBC): clear all, then set each. */
function tabStopsSequence(term: Terminal, b: BufferInternals): string {
  const width = term.options.tabStopWidth ?? 8;
  let changed = false;
  let set = '';
  for (let x = 0; x < term.cols; x++) {
    const stop = b.tabs[x] === true;
    if (stop !== (x % width === 0)) changed = true;
    if (stop) set += `\x1b[${x + 1}G\x1bH`;
  }
  return changed ? `\x1b[3g${set}` : '';
}

function regionSequence(b: BufferInternals, rows: number): string {
  return b.scrollTop === 0 && b.scrollBottom === rows - 1 ? '' : `\x1b[${b.scrollTop + 1};${b.scrollBottom + 1}r`;
}

function paintScreen(term: Terminal, p: Painter, which: 'normal' | 'alternate', top: number): void {
  p.rows(
    term.rows,
    (i) => readLine(term, which, top + i),
    (i) => {
      p.out += cup(i, 0);
    },
  );
}

/**
 * A pending wrap (the cursor past the last column) exists only right after a
 * print into the last column: print that cell again (a wide character in the
 * last two). When it is empty, only a row that is blank throughout can have
 * it: print a stand-in, then erase the row up to the cursor (EL 1 keeps the
 * cursor where it is). `row` is the cursor's screen row.
 */
function pendingWrap(term: Terminal, p: Painter, b: BufferInternals, alt: boolean, row: number, cupRow: number): void {
  const { cells } = readLine(term, alt ? 'alternate' : 'normal', b.ybase + row);
  const cols = term.cols;
  const lastX = cells[cols - 2]?.width === 2 ? cols - 2 : cols - 1;
  const last = cells[lastX]!;
  const blank = last.chars === '' && isEraseAttr(last.attr) && cells.every((c) => c.chars === '' && c.width === 1 && sameAttr(c.attr, last.attr));
  if (last.cutOff || (last.chars === '' && !blank)) return; // cannot be made: the cursor stays on the last column
  // CUP, not CHA: xterm's CHA moves to the region's top row in origin mode.
  p.out += `\x1b[${cupRow + 1};${lastX + 1}H`;
  p.at(lastX);
  if (!blank) {
    p.setPen(last.attr);
    p.out += last.chars;
    return;
  }
  p.setPen(eraseAttrOf(last.attr));
  p.out += ' \x1b[1K';
}

/**
 * Everything xterm holds about the screen, as bytes that rebuild it in a
 * terminal of the same size whose cursor is home on a blank screen, or right
 * after history lines (which the frame scrolls up into scrollback first):
 * cells with their attributes and wrap flags, both screens when the
 * alternate one is on, each screen's scroll region, tab stops and saved
 * cursor (DECSC), the cursor (with a pending wrap), the pen, charsets,
 * xterm's modes, and the modes xterm does not keep (`tracked`). Wrapped in
 * a synchronized update, with the cursor hidden while painting.
 *
 * Not reproduced, because no sequence makes them in a terminal that starts
 * blank (xterm reaches them through its own quirks):
 * - the wrap flag of the screen's first row: the line it continues is
 *   history, or gone, and the frame starts on a fresh line;
 * - whatever is in the cell right of a wide character, when it is not the
 *   character's right half, and a right half with no wide character before
 *   it (autowrap-off prints, erases and resizes can leave such pairs; every
 *   print mends them): the wide character is painted whole, a lone right
 *   half as an empty cell;
 * - a wide character cut off in the last column by a narrowing resize:
 *   painted as an empty cell;
 * - an underline flag with no style (DECRC restores the flag, not the
 *   style): painted as a single underline;
 * - a pending wrap over an empty last cell in a row that is not blank, and
 *   in origin mode a cursor outside the scroll region (only ?47l / ?1047l
 *   hand a cursor over unchecked): the nearest cursor a frame can make;
 * - two odd empty cells side by side at the end of a line (oddEmptyLast);
 * - the normal screen's own cursor while the alternate one is on (leaving
 *   it replaces that cursor anyway).
 * The property test leaves out exactly these, each where it compares.
 */
export function screenFrameOf(term: Terminal, tracked: TrackedModes): string {
  const c = core(term);
  const { rows, cols } = term;
  const p = new Painter(cols);
  const alt = term.buffer.active.type === 'alternate';
  // Move to the bottom: a blank screen stays as it is, history lines above
  // the cursor scroll up into scrollback. Then a known state to paint in.
  p.out += '\x1b[?2026h\x1b[?25l\r' + '\n'.repeat(rows - 1);
  p.out += '\x1b[0m\x1b[4l\x1b[?7h\x1b[?6l\x1b[r\x1b(B\x0f';
  paintScreen(term, p, 'normal', c.buffers.normal.ybase);
  p.out += tabStopsSequence(term, c.buffers.normal);
  if (alt) {
    // The normal screen's own scroll region, kitty flags and saved cursor
    // (what ?1049h saved), then the switch. Its cursor is not kept: leaving
    // the alternate screen puts it back from the saved one (1049) or takes
    // the alternate screen's (47, 1047).
    const normal = c.buffers.normal;
    p.out += regionSequence(normal, rows) + kittyFlagsSequence(tracked.kittyFlags);
    savedCursorSetup(term, p, normal);
    p.out += '\x1b[?1049h';
    // xterm fills the alternate screen in the pen's background.
    p.setPen(DEFAULT_ATTR);
    p.out += '\x1b[2J\x1b(B';
    paintScreen(term, p, 'alternate', c.buffers.alt.ybase);
    p.out += tabStopsSequence(term, c.buffers.alt);
  } else if (tracked.kittyFlagsAlt.length > 0) {
    // The alternate screen's kitty flags wait for its next use. Everything
    // this visit changes (saved cursor, cursor, pen, charset) is set below.
    p.out += '\x1b[?1049h' + kittyFlagsSequence(tracked.kittyFlagsAlt) + '\x1b[?1049l';
  }
  const b = c.buffer;
  savedCursorSetup(term, p, b);
  p.out += '\x1b7\x1b(B';
  const modes = term.modes;
  if (modes.originMode) p.out += '\x1b[?6h';
  // In origin mode the cursor can only be inside the region (see scrollRegionSequence).
  const row = modes.originMode ? Math.min(b.scrollBottom, Math.max(b.scrollTop, b.y)) : b.y;
  p.out += scrollRegionSequence({
    cursorX: Math.min(b.x, cols - 1),
    cursorY: row,
    scrollTop: b.scrollTop,
    scrollBottom: b.scrollBottom,
    rows,
    originMode: modes.originMode,
  });
  if (b.x >= cols) pendingWrap(term, p, b, alt, row, modes.originMode ? row - b.scrollTop : row);
  // Modes; after the cursor, since insert mode and autowrap change what a print does.
  if (modes.applicationCursorKeysMode) p.out += '\x1b[?1h';
  if (modes.applicationKeypadMode) p.out += '\x1b[?66h';
  if (modes.bracketedPasteMode) p.out += '\x1b[?2004h';
  if (modes.insertMode) p.out += '\x1b[4h';
  if (modes.reverseWraparoundMode) p.out += '\x1b[?45h';
  if (modes.sendFocusMode) p.out += '\x1b[?1004h';
  if (!modes.wraparoundMode) p.out += '\x1b[?7l';
  const mouse = { none: '', x10: '\x1b[?9h', vt200: '\x1b[?1000h', drag: '\x1b[?1002h', any: '\x1b[?1003h' }[modes.mouseTrackingMode];
  p.out += mouse;
  const options = c.optionsService.rawOptions;
  if (options.cursorBlink) p.out += '\x1b[?12h';
  if (options.convertEol) p.out += '\x1b[20h';
  p.out += trackedModesSequence(tracked);
  if (!c.coreService.isCursorHidden) p.out += '\x1b[?25h';
  // Charsets: G0-G3 and the one in use. After DECRC xterm can have a charset
  // in use that is not the one designated to the G-set in use (it saves the
  // table, not the designations); no sequence but DECRC makes that, and our
  // DECSC slot is taken. Designating the table in use to that G-set gives the
  // same output, and is what a real terminal (which restores designations)
  // holds.
  const cs = c._charsetService;
  for (let g = 0; g < 4; g++) {
    const table = g === cs.glevel ? cs.charset : cs._charsets[g];
    if (table !== undefined) p.out += `\x1b${G_INTERMEDIATE[g]}${designatorOf(table)}`;
  }
  if (cs.glevel > 0 && cs.glevel < 4) p.out += G_SHIFT[cs.glevel];
  // The pen last, link included.
  p.setPen(attrOf(term, c._inputHandler._curAttrData, true));
  p.out += '\x1b[?2026l';
  return p.out;
}

/**
 * Lines [start, end) of the normal buffer, each ended by CRLF, with their
 * attributes and wraps (except a wrap onto the slice's first line).
 */
export function historyLinesOf(term: Terminal, start: number, end: number): string {
  if (end <= start) return '';
  const p = new Painter(term.cols);
  p.out += '\x1b[0m';
  p.rows(
    end - start,
    (i) => readLine(term, 'normal', start + i),
    (i) => {
      if (i === 0) return;
      p.setPen(DEFAULT_ATTR); // the new line a scroll brings takes the pen's background
      p.out += '\r\n';
    },
  );
  p.setPen(DEFAULT_ATTR);
  return p.out + '\r\n';
}
