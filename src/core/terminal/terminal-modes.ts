/**
 * Terminal state that xterm (and so the runner's model) does not keep, or
 * keeps differently from the terminals clients attach from, tracked from the
 * parser's own hooks so a snapshot can put it back: window title, cursor
 * visibility, mouse encoding, cursor shape, kitty keyboard flags (a stack per
 * screen) and modifyOtherKeys. The rest (screen, scroll region, modes xterm
 * knows) is read from the model itself: see src/runner/model/snapshot-frame.ts.
 * Pure and immutable: each reducer returns a new state.
 */

export type MouseEncoding = 'default' | 'utf8' | 'sgr' | 'urxvt' | 'sgr-pixels';

export interface TrackedModes {
  readonly title: string;
  readonly cursorHidden: boolean;
  readonly mouseEncoding: MouseEncoding;
  /** DECSCUSR parameter; 0 is the terminal's default shape. */
  readonly cursorShape: number;
  /** Whether the alternate screen is on: the kitty flags live in a stack per screen. */
  readonly altScreen: boolean;
  /** Kitty keyboard protocol flag stack of the main screen, bottom first; empty = protocol off. */
  readonly kittyFlags: readonly number[];
  /** The same for the alternate screen. */
  readonly kittyFlagsAlt: readonly number[];
  /** xterm's modifyOtherKeys level (CSI > 4 ; Pv m); 0 = off. */
  readonly modifyOtherKeys: number;
}

/** The kitty protocol caps its stack (the oldest entry goes); so do we, against a runaway program. */
export const KITTY_STACK_LIMIT = 16;

export const INITIAL_MODES: TrackedModes = {
  title: '',
  cursorHidden: false,
  mouseEncoding: 'default',
  cursorShape: 0,
  altScreen: false,
  kittyFlags: [],
  kittyFlagsAlt: [],
  modifyOtherKeys: 0,
};

const MOUSE_ENCODINGS: Record<number, MouseEncoding> = {
  1005: 'utf8',
  1006: 'sgr',
  1015: 'urxvt',
  1016: 'sgr-pixels',
};

/** The DEC private modes that switch to the alternate screen and back. */
const ALT_SCREEN_MODES = new Set([47, 1047, 1049]);

/** CSI ? Pm h / CSI ? Pm l */
export function onDecPrivateMode(state: TrackedModes, params: readonly number[], set: boolean): TrackedModes {
  let next = state;
  for (const p of params) {
    if (p === 25) next = { ...next, cursorHidden: !set };
    if (ALT_SCREEN_MODES.has(p) && next.altScreen !== set) next = { ...next, altScreen: set };
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

/** The kitty flag stack of the screen that is on. */
export function activeKittyFlags(state: TrackedModes): readonly number[] {
  return state.altScreen ? state.kittyFlagsAlt : state.kittyFlags;
}

/**
 * CSI > f u (push), CSI < n u (pop n, at least 1), CSI = f ; m u (set the
 * current flags: m = 1 replaces, 2 sets bits, 3 clears bits), on the stack of
 * the screen that is on.
 */
export function onKittyKeyboard(state: TrackedModes, prefix: '>' | '<' | '=', params: readonly number[]): TrackedModes {
  const stack = activeKittyFlags(state);
  let next: readonly number[];
  if (prefix === '>') {
    next = [...stack, params[0] ?? 0].slice(-KITTY_STACK_LIMIT);
  } else if (prefix === '<') {
    const n = Math.max(1, params[0] ?? 1);
    next = stack.slice(0, Math.max(0, stack.length - n));
  } else {
    const flags = params[0] ?? 0;
    const mode = params[1] || 1;
    const current = stack[stack.length - 1] ?? 0;
    const value = mode === 2 ? current | flags : mode === 3 ? current & ~flags : flags;
    next = stack.length ? [...stack.slice(0, -1), value] : [value];
  }
  return state.altScreen ? { ...state, kittyFlagsAlt: next } : { ...state, kittyFlags: next };
}

/**
 * CSI > Pp ; Pv m (XTMODKEYS) sets resource Pp to Pv, no Pv resets it; CSI >
 * Pp n disables it. Only modifyOtherKeys (Pp = 4) is followed.
 */
export function onModifyKeys(state: TrackedModes, final: 'm' | 'n', params: readonly number[]): TrackedModes {
  if (params[0] !== 4) return state;
  const level = final === 'm' ? (params[1] ?? 0) : 0;
  return level === state.modifyOtherKeys ? state : { ...state, modifyOtherKeys: level };
}

/**
 * RIS (ESC c) resets everything. DECSTR (CSI ! p) shows the cursor and resets
 * its shape, as xterm (and so the model) does; the title, the mouse encoding,
 * the screen, the kitty flags and modifyOtherKeys stay.
 */
export function onReset(state: TrackedModes, hard: boolean): TrackedModes {
  return hard ? INITIAL_MODES : { ...state, cursorHidden: false, cursorShape: 0 };
}

/** Pushes that rebuild a kitty flag stack on a screen whose stack is empty. */
export function kittyFlagsSequence(stack: readonly number[]): string {
  return stack.map((f) => `\x1b[>${f}u`).join('');
}

/**
 * Escape sequences that re-create the tracked modes in a fresh terminal,
 * with the kitty stack of the screen that is on (a frame that turns the
 * alternate screen on sends the main screen's stack before, see
 * kittyFlagsSequence).
 */
export function trackedModesSequence(m: TrackedModes): string {
  let s = '';
  if (m.title) s += `\x1b]2;${m.title}\x07`;
  if (m.cursorHidden) s += '\x1b[?25l';
  const enc = Object.entries(MOUSE_ENCODINGS).find(([, v]) => v === m.mouseEncoding);
  if (enc) s += `\x1b[?${enc[0]}h`;
  if (m.cursorShape) s += `\x1b[${m.cursorShape} q`;
  s += kittyFlagsSequence(activeKittyFlags(m));
  if (m.modifyOtherKeys) s += `\x1b[>4;${m.modifyOtherKeys}m`;
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
 * Sets the scroll region (when it is not the whole screen) and then puts the
 * cursor in place, since DECSTBM homes the cursor. With origin mode on, CUP
 * rows count from the region's top and stay inside the region (a cursor
 * outside it, which only a screen switch leaves, goes to the nearest row);
 * send `CSI ? 6 h` before this.
 */
export function scrollRegionSequence(c: CursorAndRegion): string {
  const full = c.scrollTop === 0 && c.scrollBottom === c.rows - 1;
  const region = full ? '' : `\x1b[${c.scrollTop + 1};${c.scrollBottom + 1}r`;
  const y = c.originMode ? Math.min(c.scrollBottom, Math.max(c.scrollTop, c.cursorY)) - c.scrollTop : c.cursorY;
  return `${region}\x1b[${y + 1};${c.cursorX + 1}H`;
}
