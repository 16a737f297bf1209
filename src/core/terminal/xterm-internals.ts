/**
 * The one place that knows @xterm/headless's private state (6.0.0, pinned exactly in
 * package.json): the shapes of the fields we read, narrow readers for them, and a workaround for
 * an xterm bug that would wedge a terminal. The runner's model and its snapshot painter
 * (src/runner/model/snapshot-frame.ts, frame-painter.ts, term-attrs.ts) and the board's preview all go
 * through here; the snapshot property test (test/integration/snapshot-property.test.ts) fails if
 * an upgrade moves a field. Types only from the package: constructing a terminal is
 * src/state/headless-terminal.ts's job, so this stays pure.
 */
import type { Terminal } from '@xterm/headless';

export type { Terminal };

/** A charset table as xterm keeps it; undefined is plain ASCII. */
export type Charset = object | undefined;

export interface AttrInternals {
  fg: number;
  bg: number;
  extended: { _ext: number; urlId: number };
}

export interface BufferInternals {
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

export interface InputHandlerInternals {
  _curAttrData: AttrInternals;
  _parser: { currentState: number };
  parse(data: string): unknown;
  eraseInDisplay(params: { params: Int32Array | number[] }, respectProtect?: boolean): boolean;
  _restrictCursor(maxCol?: number): void;
  _eraseInBufferLine(y: number, start: number, end: number, clearWrap?: boolean, respectProtect?: boolean): void;
  _resetBufferLine(y: number, respectProtect?: boolean): void;
}

/**
 * A line as xterm stores it (BufferLine): three words a cell in `_data`, the content word (code
 * point, combined flag, width) then fg and bg, as CELL_* below say. A combined character's
 * string and a cell's extended attributes live elsewhere, read through loadCell.
 */
export interface LineInternals {
  readonly length: number;
  readonly isWrapped: boolean;
  readonly _data: Uint32Array;
  loadCell(x: number, cell: AttrInternals): unknown;
}

/** The content word's parts (common/buffer/Constants.ts, Content). */
export const CELL_CODEPOINT_MASK = 0x1fffff;
export const CELL_IS_COMBINED = 0x200000;
export const CELL_WIDTH_SHIFT = 22;

export interface CoreInternals {
  buffer: BufferInternals & { lines: { get(i: number): unknown } };
  buffers: { normal: BufferInternals & { lines: { get(i: number): LineInternals | undefined } }; alt: BufferInternals & { lines: { get(i: number): LineInternals | undefined } } };
  coreService: { isCursorHidden: boolean };
  optionsService: { rawOptions: { cursorBlink: boolean; convertEol: boolean } };
  _charsetService: { charset: Charset; glevel: number; _charsets: Charset[] };
  _inputHandler: InputHandlerInternals;
  _oscLinkService: { getLinkData(id: number): { id?: string; uri: string } | undefined };
}

export function core(term: Terminal): CoreInternals {
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
