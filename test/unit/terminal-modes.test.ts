import { describe, expect, it } from 'vitest';
import {
  activeKittyFlags,
  INITIAL_MODES,
  KITTY_STACK_LIMIT,
  kittyFlagsSequence,
  onCursorShape,
  onDecPrivateMode,
  onKittyKeyboard,
  onModifyKeys,
  onReset,
  onTitle,
  scrollRegionSequence,
  trackedModesSequence,
  type TrackedModes,
} from '../../src/core/terminal/terminal-modes.js';

const modes = (over: Partial<TrackedModes> = {}): TrackedModes => ({ ...INITIAL_MODES, ...over });

describe('INITIAL_MODES', () => {
  it('is what a fresh terminal has', () => {
    expect(INITIAL_MODES).toEqual({
      title: '',
      cursorHidden: false,
      mouseEncoding: 'default',
      cursorShape: 0,
      altScreen: false,
      kittyFlags: [],
      kittyFlagsAlt: [],
      modifyOtherKeys: 0,
    });
  });
});

describe('onDecPrivateMode', () => {
  it('follows cursor visibility (?25)', () => {
    const hidden = onDecPrivateMode(INITIAL_MODES, [25], false);
    expect(hidden.cursorHidden).toBe(true);
    expect(onDecPrivateMode(hidden, [25], true).cursorHidden).toBe(false);
  });

  it('follows every mouse encoding, the last one set winning', () => {
    expect(onDecPrivateMode(INITIAL_MODES, [1005], true).mouseEncoding).toBe('utf8');
    expect(onDecPrivateMode(INITIAL_MODES, [1006], true).mouseEncoding).toBe('sgr');
    expect(onDecPrivateMode(INITIAL_MODES, [1015], true).mouseEncoding).toBe('urxvt');
    expect(onDecPrivateMode(INITIAL_MODES, [1016], true).mouseEncoding).toBe('sgr-pixels');
    expect(onDecPrivateMode(INITIAL_MODES, [1006, 1016], true).mouseEncoding).toBe('sgr-pixels');
  });

  it('resets the mouse encoding only when the reset names the one in use', () => {
    const sgr = modes({ mouseEncoding: 'sgr' });
    expect(onDecPrivateMode(sgr, [1006], false).mouseEncoding).toBe('default');
    expect(onDecPrivateMode(sgr, [1015], false).mouseEncoding).toBe('sgr');
  });

  it('follows the alternate screen through 47, 1047 and 1049', () => {
    for (const p of [47, 1047, 1049]) {
      const on = onDecPrivateMode(INITIAL_MODES, [p], true);
      expect(on.altScreen).toBe(true);
      expect(onDecPrivateMode(on, [p], false).altScreen).toBe(false);
    }
    expect(onDecPrivateMode(INITIAL_MODES, [1048], true).altScreen).toBe(false);
  });

  it('takes several parameters at once', () => {
    const m = onDecPrivateMode(INITIAL_MODES, [1049, 25, 1006], true);
    expect(m).toEqual(modes({ altScreen: true, mouseEncoding: 'sgr' }));
    const off = onDecPrivateMode(m, [25, 1000], false);
    expect(off.cursorHidden).toBe(true);
  });

  it('leaves the state alone for modes it does not follow, and never changes its input', () => {
    const start = modes({ title: 't' });
    const frozen = JSON.stringify(start);
    expect(onDecPrivateMode(start, [1, 7, 1000, 2004, 2026], true)).toBe(start);
    onDecPrivateMode(start, [25, 1006, 1049], true);
    expect(JSON.stringify(start)).toBe(frozen);
  });
});

describe('onCursorShape', () => {
  it('keeps DECSCUSR 0-6', () => {
    for (let s = 0; s <= 6; s++) expect(onCursorShape(modes({ cursorShape: 3 }), [s]).cursorShape).toBe(s);
  });

  it('ignores values out of range and takes a missing one as 0', () => {
    const m = modes({ cursorShape: 4 });
    expect(onCursorShape(m, [7])).toBe(m);
    expect(onCursorShape(m, []).cursorShape).toBe(0);
  });
});

describe('onTitle', () => {
  it('replaces the title', () => {
    expect(onTitle(modes({ title: 'old' }), '✳ Claude Code').title).toBe('✳ Claude Code');
    expect(onTitle(modes({ title: 'old' }), '').title).toBe('');
  });
});

describe('onKittyKeyboard', () => {
  it('pushes flags (CSI > f u)', () => {
    const m = onKittyKeyboard(onKittyKeyboard(INITIAL_MODES, '>', [1]), '>', [7]);
    expect(m.kittyFlags).toEqual([1, 7]);
    expect(onKittyKeyboard(INITIAL_MODES, '>', []).kittyFlags).toEqual([0]);
  });

  it('evicts the oldest entry when the stack is full', () => {
    let m = INITIAL_MODES;
    for (let i = 1; i <= KITTY_STACK_LIMIT + 2; i++) m = onKittyKeyboard(m, '>', [i]);
    expect(m.kittyFlags).toHaveLength(KITTY_STACK_LIMIT);
    expect(m.kittyFlags[0]).toBe(3);
    expect(m.kittyFlags[KITTY_STACK_LIMIT - 1]).toBe(KITTY_STACK_LIMIT + 2);
  });

  it('pops one entry by default (CSI < u, whose parameter parses as 0), n with CSI < n u, and empties at most', () => {
    const m = modes({ kittyFlags: [1, 2, 3, 4] });
    expect(onKittyKeyboard(m, '<', []).kittyFlags).toEqual([1, 2, 3]);
    expect(onKittyKeyboard(m, '<', [0]).kittyFlags).toEqual([1, 2, 3]);
    expect(onKittyKeyboard(m, '<', [2]).kittyFlags).toEqual([1, 2]);
    expect(onKittyKeyboard(m, '<', [99]).kittyFlags).toEqual([]);
    expect(onKittyKeyboard(INITIAL_MODES, '<', [1]).kittyFlags).toEqual([]);
  });

  it('sets the current flags (CSI = f ; m u): mode 1 replaces, 2 sets bits, 3 clears bits', () => {
    const m = modes({ kittyFlags: [1, 0b0101] });
    expect(onKittyKeyboard(m, '=', [0b0010, 1]).kittyFlags).toEqual([1, 0b0010]);
    expect(onKittyKeyboard(m, '=', [0b0010, 2]).kittyFlags).toEqual([1, 0b0111]);
    expect(onKittyKeyboard(m, '=', [0b0100, 3]).kittyFlags).toEqual([1, 0b0001]);
  });

  it('takes a missing (or 0) mode as 1 and sets an empty stack as its one entry', () => {
    const m = modes({ kittyFlags: [9] });
    expect(onKittyKeyboard(m, '=', [4]).kittyFlags).toEqual([4]);
    expect(onKittyKeyboard(m, '=', [4, 0]).kittyFlags).toEqual([4]);
    expect(onKittyKeyboard(INITIAL_MODES, '=', [5, 1]).kittyFlags).toEqual([5]);
    expect(onKittyKeyboard(INITIAL_MODES, '=', [5, 2]).kittyFlags).toEqual([5]);
    expect(onKittyKeyboard(INITIAL_MODES, '=', [5, 3]).kittyFlags).toEqual([0]);
  });

  it('keeps a stack per screen: operations apply to the screen that is on', () => {
    let m = onKittyKeyboard(INITIAL_MODES, '>', [1]);
    m = onDecPrivateMode(m, [1049], true);
    expect(activeKittyFlags(m)).toEqual([]);
    m = onKittyKeyboard(m, '>', [7]);
    m = onKittyKeyboard(m, '=', [8, 2]);
    expect(m.kittyFlags).toEqual([1]);
    expect(m.kittyFlagsAlt).toEqual([15]);
    expect(activeKittyFlags(m)).toEqual([15]);
    m = onDecPrivateMode(m, [1049], false);
    expect(activeKittyFlags(m)).toEqual([1]);
    m = onKittyKeyboard(m, '<', [1]);
    expect(m.kittyFlags).toEqual([]);
    expect(m.kittyFlagsAlt).toEqual([15]);
  });
});

describe('onModifyKeys', () => {
  it('follows modifyOtherKeys (CSI > 4 ; Pv m)', () => {
    const two = onModifyKeys(INITIAL_MODES, 'm', [4, 2]);
    expect(two.modifyOtherKeys).toBe(2);
    expect(onModifyKeys(two, 'm', [4, 0]).modifyOtherKeys).toBe(0);
    expect(onModifyKeys(two, 'm', [4]).modifyOtherKeys).toBe(0); // no value: back to the initial one
    expect(onModifyKeys(two, 'n', [4]).modifyOtherKeys).toBe(0); // CSI > 4 n disables it
  });

  it('ignores the other resources, and a level already in effect', () => {
    const two = modes({ modifyOtherKeys: 2 });
    expect(onModifyKeys(two, 'm', [1, 2])).toBe(two);
    expect(onModifyKeys(two, 'm', [0])).toBe(two);
    expect(onModifyKeys(two, 'n', [2])).toBe(two);
    expect(onModifyKeys(two, 'm', [4, 2])).toBe(two);
  });
});

describe('onReset', () => {
  const busy = modes({
    title: 'app',
    cursorHidden: true,
    mouseEncoding: 'sgr',
    cursorShape: 5,
    altScreen: true,
    kittyFlags: [1],
    kittyFlagsAlt: [7],
    modifyOtherKeys: 2,
  });

  it('resets everything on RIS', () => {
    expect(onReset(busy, true)).toEqual(INITIAL_MODES);
  });

  it('shows the cursor and resets its shape on DECSTR, as xterm does, keeping the rest', () => {
    expect(onReset(busy, false)).toEqual({ ...busy, cursorHidden: false, cursorShape: 0 });
  });
});

describe('trackedModesSequence', () => {
  it('is empty for a fresh terminal', () => {
    expect(trackedModesSequence(INITIAL_MODES)).toBe('');
  });

  it('re-creates every tracked mode', () => {
    const m = modes({ title: '✳ Claude Code', cursorHidden: true, mouseEncoding: 'sgr', cursorShape: 6, kittyFlags: [1, 7], modifyOtherKeys: 2 });
    expect(trackedModesSequence(m)).toBe('\x1b]2;✳ Claude Code\x07\x1b[?25l\x1b[?1006h\x1b[6 q\x1b[>1u\x1b[>7u\x1b[>4;2m');
  });

  it('names each mouse encoding by its mode', () => {
    expect(trackedModesSequence(modes({ mouseEncoding: 'utf8' }))).toBe('\x1b[?1005h');
    expect(trackedModesSequence(modes({ mouseEncoding: 'urxvt' }))).toBe('\x1b[?1015h');
    expect(trackedModesSequence(modes({ mouseEncoding: 'sgr-pixels' }))).toBe('\x1b[?1016h');
  });

  it('pushes the kitty stack of the screen that is on', () => {
    expect(trackedModesSequence(modes({ kittyFlags: [1], kittyFlagsAlt: [3, 5] }))).toBe('\x1b[>1u');
    expect(trackedModesSequence(modes({ altScreen: true, kittyFlags: [1], kittyFlagsAlt: [3, 5] }))).toBe('\x1b[>3u\x1b[>5u');
  });
});

describe('kittyFlagsSequence', () => {
  it('pushes a stack bottom first', () => {
    expect(kittyFlagsSequence([])).toBe('');
    expect(kittyFlagsSequence([1, 0, 31])).toBe('\x1b[>1u\x1b[>0u\x1b[>31u');
  });
});

describe('scrollRegionSequence', () => {
  const at = { cursorX: 4, cursorY: 7, rows: 24, originMode: false };

  it('only places the cursor when the region is the whole screen', () => {
    expect(scrollRegionSequence({ ...at, scrollTop: 0, scrollBottom: 23 })).toBe('\x1b[8;5H');
  });

  it('sets the region, then puts the cursor back (DECSTBM homes it)', () => {
    expect(scrollRegionSequence({ ...at, scrollTop: 2, scrollBottom: 19 })).toBe('\x1b[3;20r\x1b[8;5H');
    expect(scrollRegionSequence({ ...at, scrollTop: 0, scrollBottom: 9 })).toBe('\x1b[1;10r\x1b[8;5H');
    expect(scrollRegionSequence({ ...at, scrollTop: 5, scrollBottom: 23 })).toBe('\x1b[6;24r\x1b[8;5H');
  });

  it('counts rows from the region top in origin mode', () => {
    expect(scrollRegionSequence({ ...at, originMode: true, scrollTop: 2, scrollBottom: 19 })).toBe('\x1b[3;20r\x1b[6;5H');
    expect(scrollRegionSequence({ ...at, originMode: true, cursorY: 2, scrollTop: 2, scrollBottom: 19 })).toBe('\x1b[3;20r\x1b[1;5H');
    expect(scrollRegionSequence({ ...at, originMode: true, scrollTop: 0, scrollBottom: 23 })).toBe('\x1b[8;5H');
  });

  it('keeps the cursor inside the region in origin mode, where CUP cannot leave it', () => {
    expect(scrollRegionSequence({ ...at, originMode: true, cursorY: 0, scrollTop: 2, scrollBottom: 19 })).toBe('\x1b[3;20r\x1b[1;5H');
    expect(scrollRegionSequence({ ...at, originMode: true, cursorY: 22, scrollTop: 2, scrollBottom: 19 })).toBe('\x1b[3;20r\x1b[18;5H');
  });
});
