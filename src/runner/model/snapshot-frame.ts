/**
 * The snapshot frame: every cell written absolutely, both screens, the saved
 * cursor, character sets, tab stops, modes and a pending wrap, so a fresh
 * terminal of the same size ends up in the model's state
 * (test/integration/snapshot-property.test.ts).
 */
import { kittyFlagsSequence, scrollRegionSequence, trackedModesSequence, type TrackedModes } from '../../core/terminal/terminal-modes.js';
import { BG_HAS_EXTENDED, DEFAULT_ATTR, G_INTERMEDIATE, G_SHIFT, attrOf, designatorOf, eraseAttrOf, isEraseAttr, sameAttr } from './term-attrs.js';
import { Painter } from './frame-painter.js';
import { readLine } from './line-cells.js';
import { core, type BufferInternals, type Terminal } from '../../core/terminal/xterm-internals.js';
function cup(row: number, col: number): string {
  return row === 0 && col === 0 ? '\x1b[H' : `\x1b[${row + 1};${col + 1}H`;
}

/** Cursor, pen and charset for DECSC (or ?1049h) to save, as `b` holds them. */
function savedCursorSetup(term: Terminal, p: Painter, b: BufferInternals): { x: number; y: number } {
  const x = Math.min(b.savedX, term.cols - 1);
  const y = Math.min(Math.max(b.savedY - b.ybase, 0), term.rows - 1);
  p.out += `\x1b(${designatorOf(term, b.savedCharset)}` + cup(y, x);
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
/**
 * A one-line note drawn over a client's frame (the attach's detach key: src/runner/stream/attach-hint.ts),
 * in reverse video at the right of the row farthest from the cursor, one column from the edge,
 * with the default pen. It goes after the cells and before the cursor, pen, charsets and modes,
 * so the terminal's state is the frame's exactly; only the cells under it differ, until the
 * client's next frame.
 */
function overlaySequence(term: Terminal, p: Painter, row: number, text: string): void {
  const room = term.cols - 2;
  if (room < 4) return;
  const shown = ` ${text} `.slice(0, room);
  p.setPen(DEFAULT_ATTR);
  p.out += cup(row, term.cols - 1 - shown.length) + `\x1b[7m${shown}\x1b[27m`;
}

export function screenFrameOf(term: Terminal, tracked: TrackedModes, overlay?: string): string {
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
  if (overlay) overlaySequence(term, p, b.y < rows / 2 ? rows - 1 : 0, overlay);
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
    if (table !== undefined) p.out += `\x1b${G_INTERMEDIATE[g]}${designatorOf(term, table)}`;
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
