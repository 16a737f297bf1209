/**
 * xterm's cells, read for the snapshot painter (frame-painter.ts): a line of a buffer as one
 * CellView a column, with the cells no print makes already turned into the ones a frame can make.
 */
import { type Attr, BG_HAS_EXTENDED, DEFAULT_ATTR, attrOf, eraseAttrOf } from './term-attrs.js';
import { CELL_CODEPOINT_MASK, CELL_IS_COMBINED, CELL_WIDTH_SHIFT, core, type AttrInternals, type Terminal } from '../../core/terminal/xterm-internals.js';

/** A cell without extended attributes: attrOf reads none of it then. */
const NO_EXTENDED = { _ext: 0, urlId: 0 };
export interface CellView {
  chars: string;
  width: number;
  attr: Attr;
  /** A wide character cut off in the last column, read as an empty cell. */
  cutOff?: boolean;
}

export interface LineView {
  cells: CellView[];
  wrapped: boolean;
  /** Every cell from here to the end is EMPTY_CELL (most of a line, usually): painted as one run, unread. */
  blankFrom: number;
}

interface CellInternals extends AttrInternals {
  getChars(): string;
  getWidth(): number;
}

/** The empty cell in the default look, shared: most of a screen is these, and cells are never changed once read. */
const EMPTY_CELL: CellView = Object.freeze({ chars: '', width: 1, attr: DEFAULT_ATTR });
/** The content word of an empty cell (no code point, one cell wide): what xterm erases with. */
const NULL_CONTENT = 1 << CELL_WIDTH_SHIFT;
/** One-character strings for ASCII code points, made once (the frame reads thousands a call). */
const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

/**
 * Line y of a buffer, cell by cell. The runner runs interpreted (RUNNER_NODE_FLAGS), where every
 * call counts: the cell words are read straight from the line's array (xterm-internals.ts), and
 * only a cell with a combined character or extended attributes is loaded through xterm.
 */
export function readLine(term: Terminal, which: 'normal' | 'alternate', y: number): LineView {
  const c = core(term);
  const line = (which === 'normal' ? c.buffers.normal : c.buffers.alt).lines.get(y);
  const cols = term.cols;
  const cells: CellView[] = [];
  const data = line?._data;
  // The default empty cells at the end are not looked at one by one below.
  let n = line ? Math.min(cols, line.length) : 0;
  while (n > 0 && data![n * 3 - 3] === NULL_CONTENT && data![n * 3 - 2] === 0 && data![n * 3 - 1] === 0) n--;
  let cell: CellInternals | null = null;
  // Runs of cells share one Attr object: cheaper, and sameAttr sees it at once.
  let lastFg = 0;
  let lastBg = 0;
  let lastAttr = DEFAULT_ATTR;
  for (let x = 0; x < n; x++) {
    const content = data![x * 3]!;
    const fg = data![x * 3 + 1]!;
    const bg = data![x * 3 + 2]!;
    let attr: Attr;
    let width: number;
    let chars: string;
    if ((content & CELL_IS_COMBINED) !== 0 || (bg & BG_HAS_EXTENDED) !== 0) {
      cell ??= term.buffer.normal.getNullCell() as unknown as CellInternals;
      line!.loadCell(x, cell);
      width = cell.getWidth();
      chars = cell.getChars();
      if (bg & BG_HAS_EXTENDED) attr = attrOf(term, cell, false);
      else if (fg === lastFg && bg === lastBg) attr = lastAttr;
      else {
        attr = fg === 0 && bg === 0 ? DEFAULT_ATTR : attrOf(term, cell, false);
        lastFg = fg;
        lastBg = bg;
        lastAttr = attr;
      }
    } else {
      width = content >>> CELL_WIDTH_SHIFT;
      const cp = content & CELL_CODEPOINT_MASK;
      chars = cp === 0 ? '' : cp < 128 ? ASCII[cp]! : String.fromCodePoint(cp);
      if (fg === lastFg && bg === lastBg) attr = lastAttr;
      else {
        attr = fg === 0 && bg === 0 ? DEFAULT_ATTR : attrOf(term, { fg, bg, extended: NO_EXTENDED }, false);
        lastFg = fg;
        lastBg = bg;
        lastAttr = attr;
      }
      if (width === 1 && cp === 0 && attr === DEFAULT_ATTR) {
        cells.push(EMPTY_CELL);
        continue;
      }
    }
    // A wide character in the last column is one a narrowing resize cut off
    // (xterm does not reflow a screen while the other one is on), and a right
    // half with no wide character before it lost it to an overwrite or a
    // resize: no print makes either, so both are painted as empty cells, in
    // their background.
    if (width === 2 && x === cols - 1) cells.push({ chars: '', width: 1, attr: eraseAttrOf(attr), cutOff: true });
    else if (width === 0 && chars === '' && cells[x - 1]?.width !== 2) cells.push({ chars: '', width: 1, attr: eraseAttrOf(attr) });
    else cells.push({ chars, width, attr });
  }
  if (n < cols) cells.length = cols;
  cells.fill(EMPTY_CELL, n);
  return { cells, wrapped: line?.isWrapped ?? false, blankFrom: n };
}
