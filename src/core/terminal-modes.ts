/**
 * Terminal state that @xterm/addon-serialize leaves out of its output, tracked
 * from the parser's own hooks so a snapshot can put it back: window title,
 * cursor visibility, mouse encoding, cursor shape and kitty keyboard flags.
 * (The scroll region is read from the model itself, see snapshotSuffix.)
 * Pure and immutable: each reducer returns a new state.
 */

export type MouseEncoding = 'default' | 'utf8' | 'sgr' | 'urxvt' | 'sgr-pixels';

export interface TrackedModes {
  readonly title: string;
  readonly cursorHidden: boolean;
  readonly mouseEncoding: MouseEncoding;
  /** DECSCUSR parameter; 0 is the terminal's default shape. */
  readonly cursorShape: number;
  /** Kitty keyboard protocol flag stack, bottom first; empty = protocol off. */
  readonly kittyFlags: readonly number[];
}

/** The kitty protocol caps its stack; so do we, against a runaway program. */
export const KITTY_STACK_LIMIT = 16;

export const INITIAL_MODES: TrackedModes = {
  title: '',
  cursorHidden: false,
  mouseEncoding: 'default',
  cursorShape: 0,
  kittyFlags: [],
};

const MOUSE_ENCODINGS: Record<number, MouseEncoding> = {
  1005: 'utf8',
  1006: 'sgr',
  1015: 'urxvt',
  1016: 'sgr-pixels',
};

/** CSI ? Pm h / CSI ? Pm l */
export function onDecPrivateMode(state: TrackedModes, params: readonly number[], set: boolean): TrackedModes {
  let next = state;
  for (const p of params) {
    if (p === 25) next = { ...next, cursorHidden: !set };
    const enc = MOUSE_ENCODINGS[p];
    if (enc) {
      if (set) next = { ...next, mouseEncoding: enc };
      else if (next.mouseEncoding === enc) next = { ...next, mouseEncoding: 'default' };
    }
  }
  return next;
}

/** CSI Ps SP q */
export function onCursorShape(state: TrackedModes, params: readonly number[]): TrackedModes {
  const shape = params[0] ?? 0;
  return shape >= 0 && shape <= 6 ? { ...state, cursorShape: shape } : state;
}

/** OSC 0 and OSC 2 set the window title. */
export function onTitle(state: TrackedModes, title: string): TrackedModes {
  return { ...state, title };
}

/** CSI > f u (push), CSI < n u (pop), CSI = f ; m u (set current). */
export function onKittyKeyboard(state: TrackedModes, prefix: '>' | '<' | '=', params: readonly number[]): TrackedModes {
  const stack = state.kittyFlags;
  if (prefix === '>') {
    const pushed = [...stack, params[0] ?? 0];
    return { ...state, kittyFlags: pushed.slice(-KITTY_STACK_LIMIT) };
  }
  if (prefix === '<') {
    const n = Math.max(1, params[0] ?? 1);
    return { ...state, kittyFlags: stack.slice(0, Math.max(0, stack.length - n)) };
  }
  const flags = params[0] ?? 0;
  const mode = params[1] ?? 1;
  const current = stack[stack.length - 1] ?? 0;
  const value = mode === 2 ? current | flags : mode === 3 ? current & ~flags : flags;
  return { ...state, kittyFlags: stack.length ? [...stack.slice(0, -1), value] : [value] };
}

/** RIS (ESC c) resets everything; DECSTR (CSI ! p) all but the title. */
export function onReset(state: TrackedModes, hard: boolean): TrackedModes {
  return hard ? INITIAL_MODES : { ...INITIAL_MODES, title: state.title };
}

/** Escape sequences that re-create the tracked modes in a fresh terminal. */
export function trackedModesSequence(m: TrackedModes): string {
  let s = '';
  if (m.title) s += `\x1b]2;${m.title}\x07`;
  if (m.cursorHidden) s += '\x1b[?25l';
  const enc = Object.entries(MOUSE_ENCODINGS).find(([, v]) => v === m.mouseEncoding);
  if (enc) s += `\x1b[?${enc[0]}h`;
  if (m.cursorShape) s += `\x1b[${m.cursorShape} q`;
  for (const f of m.kittyFlags) s += `\x1b[>${f}u`;
  return s;
}

export interface CursorAndRegion {
  /** 0-based cursor position on the screen. */
  cursorX: number;
  cursorY: number;
  /** 0-based inclusive scroll region. */
  scrollTop: number;
  scrollBottom: number;
  rows: number;
  originMode: boolean;
}

/**
 * Sets the scroll region and then puts the cursor back, since DECSTBM homes
 * the cursor. With origin mode on, CUP rows count from the region's top.
 */
export function scrollRegionSequence(c: CursorAndRegion): string {
  if (c.scrollTop === 0 && c.scrollBottom === c.rows - 1) return '';
  const row = c.originMode ? c.cursorY - c.scrollTop + 1 : c.cursorY + 1;
  return `\x1b[${c.scrollTop + 1};${c.scrollBottom + 1}r\x1b[${row};${c.cursorX + 1}H`;
}
