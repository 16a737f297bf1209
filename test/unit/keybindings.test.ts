import { describe, expect, it } from 'vitest';
import { BINDINGS, Command, matchKey, textOf, TEXT_MODES, type KeyMode, type KeyPress } from '../../src/core/board/keybindings.js';

const none: KeyPress = {};
const ctrl: KeyPress = { ctrl: true };

describe('matchKey on the list', () => {
  it.each([
    ['k', none, Command.Up],
    ['', { upArrow: true }, Command.Up],
    ['j', none, Command.Down],
    ['', { downArrow: true }, Command.Down],
    ['', { pageUp: true }, Command.PageUp],
    ['', { pageDown: true }, Command.PageDown],
    ['g', none, Command.First],
    ['', { home: true }, Command.First],
    ['G', { shift: true }, Command.Last],
    ['', { end: true }, Command.Last],
    ['', { return: true }, Command.Attach],
    ['', { rightArrow: true }, Command.Attach],
    ['n', none, Command.New],
    ['x', none, Command.Kill],
    ['d', none, Command.Remove],
    ['r', none, Command.Rename],
    ['c', none, Command.Chat],
    ['/', none, Command.Filter],
    ['?', none, Command.Help],
    ['q', none, Command.Quit],
    ['c', ctrl, Command.Quit],
    ['', { escape: true, meta: true }, Command.Clear],
  ] as [string, KeyPress, Command][])('%j %j -> %s', (input, key, cmd) => {
    expect(matchKey('list', input, key)).toBe(cmd);
  });

  it('ignores keys it has no binding for, and modified forms of bound ones', () => {
    expect(matchKey('list', 'z', none)).toBeNull();
    expect(matchKey('list', 'j', { meta: true })).toBeNull(); // Alt-j
    expect(matchKey('list', 'q', ctrl)).toBeNull(); // Ctrl-Q
    expect(matchKey('list', 'c', { meta: true })).toBeNull(); // Alt-c
    expect(matchKey('list', '', { leftArrow: true })).toBeNull();
  });
});

describe('matchKey in the other modes', () => {
  it('the filter bar types letters the list would take as commands', () => {
    for (const ch of ['j', 'k', 'q', 'n', 'x', '/']) expect(matchKey('filter', ch, none)).toBeNull();
    expect(matchKey('filter', '', { return: true })).toBe(Command.Submit);
    expect(matchKey('filter', '', { escape: true, meta: true })).toBe(Command.Cancel);
    expect(matchKey('filter', '', { delete: true })).toBe(Command.DeleteBack); // what Ink calls the 0x7f Backspace sends
    expect(matchKey('filter', '', { backspace: true })).toBe(Command.DeleteBack);
    expect(matchKey('filter', 'u', ctrl)).toBe(Command.ClearField);
  });

  it('forms move between fields with Tab and the arrows', () => {
    expect(matchKey('form', '', { tab: true })).toBe(Command.NextField);
    expect(matchKey('form', '', { tab: true, shift: true })).toBe(Command.PrevField);
    expect(matchKey('form', '', { downArrow: true })).toBe(Command.NextField);
    expect(matchKey('form', '', { upArrow: true })).toBe(Command.PrevField);
    expect(matchKey('form', '', { return: true })).toBe(Command.Submit);
    expect(matchKey('form', 'c', ctrl)).toBe(Command.Cancel);
    expect(matchKey('form', 'y', none)).toBeNull();
  });

  it('a confirmation takes y, and n or Esc for no; nothing else', () => {
    expect(matchKey('confirm', 'y', none)).toBe(Command.Confirm);
    expect(matchKey('confirm', 'Y', { shift: true })).toBe(Command.Confirm);
    expect(matchKey('confirm', 'n', none)).toBe(Command.Cancel);
    expect(matchKey('confirm', '', { escape: true })).toBe(Command.Cancel);
    expect(matchKey('confirm', '', { return: true })).toBeNull(); // Enter does not kill
    expect(matchKey('confirm', 'x', none)).toBeNull();
  });

  it('the chat pane types what the list would take as commands; Enter posts, Esc closes, the page keys scroll', () => {
    for (const ch of ['j', 'k', 'q', 'n', 'x', 'c', '/', '?', 'y']) expect(matchKey('chat', ch, none)).toBeNull();
    expect(TEXT_MODES.has('chat')).toBe(true);
    expect(matchKey('chat', '', { return: true })).toBe(Command.Submit);
    expect(matchKey('chat', '', { escape: true, meta: true })).toBe(Command.Cancel);
    expect(matchKey('chat', 'c', ctrl)).toBe(Command.Cancel);
    expect(matchKey('chat', '', { pageUp: true })).toBe(Command.PageUp);
    expect(matchKey('chat', '', { pageDown: true })).toBe(Command.PageDown);
    expect(matchKey('chat', '', { end: true })).toBe(Command.Last);
    expect(matchKey('chat', '', { delete: true })).toBe(Command.DeleteBack);
    expect(matchKey('chat', 'u', ctrl)).toBe(Command.ClearField);
  });

  it('the help closes with Esc, ? or q', () => {
    for (const [input, key] of [['', { escape: true }], ['?', none], ['q', none]] as [string, KeyPress][]) {
      expect(matchKey('help', input, key)).toBe(Command.Cancel);
    }
    expect(matchKey('help', 'j', none)).toBeNull();
  });
});

describe('the binding table', () => {
  const specKey = (spec: { key?: string; input?: string }): [string, KeyPress] =>
    spec.key ? ['', { [spec.key]: true }] : [spec.input!, {}];

  it('every key in a mode reaches its own command (no binding hides another)', () => {
    for (const mode of Object.keys(BINDINGS) as KeyMode[]) {
      for (const b of BINDINGS[mode]) {
        for (const spec of b.keys) {
          const [input, key] = specKey(spec);
          expect(matchKey(mode, input, { ...key, ctrl: spec.ctrl, shift: spec.shift }), `${mode} ${JSON.stringify(spec)}`).toBe(b.command);
        }
      }
    }
  });

  it('every command has a key somewhere, a label and a help text', () => {
    const bound = new Set(Object.values(BINDINGS).flatMap((bs) => bs.map((b) => b.command)));
    for (const c of Object.values(Command)) expect(bound.has(c), c).toBe(true);
    for (const b of Object.values(BINDINGS).flat()) {
      expect(b.label).not.toBe('');
      expect(b.help).not.toBe('');
    }
  });
});

describe('textOf', () => {
  it('gives printable keys and pastes; nothing for control or Alt keys', () => {
    expect(textOf('a', none)).toBe('a');
    expect(textOf('ü', none)).toBe('ü');
    expect(textOf('a', ctrl)).toBe('');
    expect(textOf('a', { meta: true })).toBe('');
    expect(textOf('one\ntwo\r\nthree\tfour', none)).toBe('one two three four');
    expect(textOf('a\x07b\x7f', none)).toBe('ab');
  });
});

describe('splitKeys', () => {
  it('makes one key of each character of a run, control characters as the keys they are', async () => {
    const { splitKeys } = await import('../../src/core/board/keybindings.js');
    expect(splitKeys('jG\r\t\x7f\x15')).toEqual([
      ['j', {}],
      ['G', { shift: true }],
      ['', { return: true }],
      ['', { tab: true }],
      ['', { delete: true }],
      ['u', { ctrl: true }],
    ]);
    const [[input, key]] = splitKeys('\x03') as [[string, KeyPress]];
    expect(matchKey('list', input, key)).toBe(Command.Quit);
  });
});

describe('the keys that reach into a session', () => {
  it('digits answer, i types through, Space marks, p prompts, e explains', () => {
    for (const d of '123456789') expect(matchKey('list', d, none)).toBe(Command.Answer);
    expect(matchKey('list', '0', none)).toBeNull();
    expect(matchKey('list', 'i', none)).toBe(Command.TypeInto);
    expect(matchKey('list', ' ', none)).toBe(Command.Mark);
    expect(matchKey('list', 'p', none)).toBe(Command.Prompt);
    expect(matchKey('list', 'e', none)).toBe(Command.Explain);
    expect(TEXT_MODES.has('prompt')).toBe(true);
    expect(matchKey('prompt', 'p', none)).toBeNull(); // typed into the line
    expect(BINDINGS.type).toEqual([]); // type-through: every key is the session's
  });

  it('no key means two things in one mode', () => {
    for (const [mode, bindings] of Object.entries(BINDINGS) as [KeyMode, (typeof BINDINGS)[KeyMode]][]) {
      const seen = new Map<string, Command>();
      for (const b of bindings) {
        for (const spec of b.keys) {
          const id = JSON.stringify([spec.key ?? null, spec.input ?? null, Boolean(spec.ctrl), spec.shift ?? null]);
          expect(seen.get(id) ?? b.command, `${mode}: ${id}`).toBe(b.command);
          seen.set(id, b.command);
        }
      }
    }
  });
});
