/**
 * Paints xterm's cells (read by line-cells.ts) as bytes, with the pen state of
 * an emulator in mind, for the snapshot frame (snapshot-frame.ts).
 */
import { type Attr, BG_PROTECTED, DEFAULT_ATTR, cleanColor, eraseAttrOf, isEraseAttr, sameAttr, sgrOf } from './term-attrs.js';
import type { CellView, LineView } from './line-cells.js';

// ---------------------------------------------------------------------------
// Painting

/** A character xterm (Unicode 6 widths) takes as two cells wide. */
const WIDE_STAND_IN = '\u4e00';

/**
 * Writes cells into a terminal we assume behaves like xterm, keeping track of
 * its pen (SGR, link, DECSCA) and of the cursor column on the current row.
 */
export class Painter {
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
      const { cells, blankFrom } = line!;
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
        if (c.chars !== '' && c.width === 1 && c.attr === this.pen && this.x === x) {
          // A run of narrow characters in the pen, the cursor on the first: one append, no calls.
          let run = c.chars;
          let k = x + 1;
          for (; k < end; k++) {
            const d = cells[k]!;
            if (d.width !== 1 || d.chars === '' || d.attr !== c.attr) break;
            run += d.chars;
          }
          this.out += run;
          this.x = k;
          x = k;
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
        // From blankFrom on, the run goes as far as it can: to the end, or to the last column when it wraps.
        if (x >= blankFrom) {
          n = (next ? Math.min(end, cols - 1) : end) - x;
        } else {
          while (x + n < end && !(next && x + n === cols - 1)) {
            const d = cells[x + n]!;
            if (d.chars !== '' || d.width !== 1 || (d.attr !== c.attr && !sameAttr(d.attr, c.attr))) break;
            n++;
          }
        }
        if (!sameAttr(c.attr, DEFAULT_ATTR) || (dirty >= x && dirty < x + n)) this.erase(x, n, c.attr);
        x += n;
      }
      if (wideWrap) this.column(cols - 1);
    }
  }
}
