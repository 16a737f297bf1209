import { describe, expect, it } from 'vitest';
import { DEFAULT_DETACH_KEY, findDetachKey, parseDetachKey, type DetachKey } from '../../src/core/terminal/detach-key.js';

function key(spec: string): DetachKey {
  const r = parseDetachKey(spec);
  if (!r.ok) throw new Error(r.message);
  return r.key;
}

describe('parseDetachKey', () => {
  it.each([
    ['ctrl-\\', 'Ctrl-\\', '\x1c', 92],
    ['C-]', 'Ctrl-]', '\x1d', 93],
    ['^a', 'Ctrl-A', '\x01', 97],
    ['Ctrl+A', 'Ctrl-A', '\x01', 97],
    ['CTRL-z', 'Ctrl-Z', '\x1a', 122],
    ['c-@', 'Ctrl-@', '\x00', 64],
    ['^^', 'Ctrl-^', '\x1e', 94],
    ['ctrl-_', 'Ctrl-_', '\x1f', 95],
    ['  ctrl-b  ', 'Ctrl-B', '\x02', 98],
  ])('%j -> %s, control byte, kitty and modifyOtherKeys forms', (spec, label, control, code) => {
    const k = key(spec);
    expect(k.label).toBe(label);
    expect(k.sequences[0]).toBe(control); // the legacy byte
    expect(k.sequences).toContain(`\x1b[${code};5u`); // kitty keyboard protocol: unshifted key code, ctrl
    expect(k.sequences).toContain(`\x1b[27;5;${code}~`); // xterm modifyOtherKeys
  });

  it('defaults to Ctrl-\\, which sends 0x1c', () => {
    const k = key(DEFAULT_DETACH_KEY);
    expect(k.label).toBe('Ctrl-\\');
    expect(k.sequences[0]).toBe('\x1c');
    expect(k.sequences).toContain('\x1b[92;5u');
  });

  it('an upper-case letter means the same key as lower-case (kitty reports the unshifted key)', () => {
    expect(key('ctrl-A')).toEqual(key('ctrl-a'));
    expect(key('ctrl-a').sequences).not.toContain('\x1b[65;5u');
  });

  it('recognises kitty reports with Caps Lock / Num Lock engaged and an explicit press event', () => {
    const k = key('ctrl-\\');
    for (const mods of [5, 69, 133, 197]) {
      expect(k.sequences).toContain(`\x1b[92;${mods}u`);
      expect(k.sequences).toContain(`\x1b[92;${mods}:1u`);
    }
  });

  it('does not take other modifiers, releases or repeats for the key', () => {
    const k = key('ctrl-\\');
    for (const other of ['\x1b[92;6u' /* ctrl+shift */, '\x1b[92;7u' /* ctrl+alt */, '\x1b[92u', '\x1b[92;5:3u' /* release */, '\x1b[92;5:2u' /* repeat */, '\x1b[27;6;92~', '\\']) {
      expect(findDetachKey(k, other), JSON.stringify(other)).toBeNull();
    }
  });

  it.each(['', 'x', 'ctrl', 'ctrl-', 'ctrl-ab', 'ctrl-1', 'ctrl- ', 'alt-a', 'shift-\\', 'ctrl-shift-a', 'meta-]', '^', 'C-', 'ctrl-é', 'ctrl-\\\\', 'ctrl--'])(
    'refuses %j with a message saying what is allowed',
    (spec) => {
      const r = parseDetachKey(spec);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toBe(
        `cannot use "${spec}" as a detach key; use Ctrl plus a letter or one of @ [ \\ ] ^ _ (for example ctrl-\\)`,
      );
    },
  );

  it.each([
    ['ctrl-[', 'Escape'],
    ['^[', 'Escape'],
    ['ctrl-i', 'Tab'],
    ['C-m', 'Enter'],
  ])('refuses %j: it sends the same byte as %s', (spec, shadowed) => {
    const r = parseDetachKey(spec);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(shadowed);
    expect(!r.ok && r.message).toContain(`"${spec}"`);
  });
});

describe('findDetachKey', () => {
  const k = key('ctrl-\\');

  it('returns null when the key is absent', () => {
    expect(findDetachKey(k, '')).toBeNull();
    expect(findDetachKey(k, 'hello\r\x1b[A\x1b[92;6u')).toBeNull();
  });

  it('finds the control byte with its position and length', () => {
    expect(findDetachKey(k, 'abc\x1cdef')).toEqual({ index: 3, length: 1 });
  });

  it('finds the kitty and modifyOtherKeys forms and reports their full length', () => {
    expect(findDetachKey(k, 'ab\x1b[92;5u')).toEqual({ index: 2, length: 7 });
    expect(findDetachKey(k, '\x1b[92;133uZ')).toEqual({ index: 0, length: 9 });
    expect(findDetachKey(k, 'x\x1b[27;5;92~')).toEqual({ index: 1, length: 10 });
  });

  it('picks the earliest of several forms', () => {
    expect(findDetachKey(k, 'a\x1b[27;5;92~b\x1c')).toEqual({ index: 1, length: 10 });
    expect(findDetachKey(k, 'ab\x1c\x1b[92;5u')).toEqual({ index: 2, length: 1 });
    expect(findDetachKey(k, '\x1b[A\x1b[92;5u\x1c')).toEqual({ index: 3, length: 7 });
  });

  it('matches the key chosen, not another control key', () => {
    const ctrlA = key('^a');
    expect(findDetachKey(ctrlA, '\x1c\x1b[92;5u')).toBeNull();
    expect(findDetachKey(ctrlA, '\x1c\x01')).toEqual({ index: 1, length: 1 });
    expect(findDetachKey(ctrlA, '\x1b[97;5u')).toEqual({ index: 0, length: 7 });
  });
});
