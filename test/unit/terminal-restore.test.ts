import { describe, expect, it } from 'vitest';
import { AltScreenTracker, terminalRestoreSequence } from '../../src/core/terminal/terminal-restore.js';

describe('terminalRestoreSequence', () => {
  const RESETS: [string, string][] = [
    ['mouse X10', '\x1b[?9l'],
    ['mouse normal tracking', '\x1b[?1000l'],
    ['mouse button-event tracking', '\x1b[?1002l'],
    ['mouse any-event tracking', '\x1b[?1003l'],
    ['mouse SGR encoding', '\x1b[?1006l'],
    ['mouse UTF-8 encoding', '\x1b[?1005l'],
    ['mouse urxvt encoding', '\x1b[?1015l'],
    ['mouse SGR-pixel encoding', '\x1b[?1016l'],
    ['focus events', '\x1b[?1004l'],
    ['bracketed paste', '\x1b[?2004l'],
    ['synchronized output', '\x1b[?2026l'],
    ['kitty keyboard stack pop', '\x1b[<99u'],
    ['modifyOtherKeys', '\x1b[>4m'],
    ['cursor keys normal', '\x1b[?1l'],
    ['keypad normal', '\x1b>'],
    ['insert mode off', '\x1b[4l'],
    ['ASCII character set', '\x1b(B'],
    ['SGR reset', '\x1b[0m'],
    ['autowrap on', '\x1b[?7h'],
    ['cursor shape default', '\x1b[0 q'],
    ['cursor visible', '\x1b[?25h'],
    ['scroll region reset', '\x1b[r'],
    ['origin mode off', '\x1b[?6l'],
  ];

  it.each([true, false])('undoes every mode a program may have left on (alt screen %s)', (alt) => {
    const s = terminalRestoreSequence(alt);
    for (const [what, seq] of RESETS) expect(s, what).toContain(seq);
  });

  it('resets the scroll region without moving the cursor (save ... restore around it)', () => {
    const s = terminalRestoreSequence(false);
    expect(s).toMatch(/\x1b7[^]*\x1b\[r[^]*\x1b8/);
  });

  it('leaves the alternate screen only when it is active', () => {
    expect(terminalRestoreSequence(true)).toContain('\x1b[?1049l');
    expect(terminalRestoreSequence(false)).not.toMatch(/\x1b\[\?(1049|1047|47)[hl]/);
  });

  it('leaves the alternate screen first, so the rest applies to the main screen', () => {
    const s = terminalRestoreSequence(true);
    const leave = s.indexOf('\x1b[?1049l');
    expect(leave).toBeGreaterThanOrEqual(0);
    for (const seq of ['\x1b[0m', '\x1b[?25h', '\x1b[?1000l', '\x1b[?2004l', '\x1b[r']) expect(s.indexOf(seq)).toBeGreaterThan(leave);
  });

  it('pops the kitty keyboard stack on both screens (kitty keeps one per screen)', () => {
    const s = terminalRestoreSequence(true);
    const leave = s.indexOf('\x1b[?1049l');
    const pop = '\x1b[<99u';
    expect(s.indexOf(pop)).toBeLessThan(leave);
    expect(s.lastIndexOf(pop)).toBeGreaterThan(leave);
  });

  it('turns nothing on that the user did not have (no set-mode except the defaults)', () => {
    for (const alt of [true, false]) {
      const sets = terminalRestoreSequence(alt).match(/\x1b\[\?\d+h/g) ?? [];
      expect(sets.sort()).toEqual(['\x1b[?25h', '\x1b[?7h']);
    }
  });

  it('ends with the cursor visible (last word wins)', () => {
    expect(terminalRestoreSequence(true).endsWith('\x1b[?25h')).toBe(true);
  });
});

describe('AltScreenTracker', () => {
  const track = (...chunks: string[]) => {
    const t = new AltScreenTracker();
    for (const c of chunks) t.feed(c);
    return t.active;
  };

  it('starts off the alternate screen', () => {
    expect(new AltScreenTracker().active).toBe(false);
  });

  it.each(['1049', '1047', '47'])('follows ?%s h and l', (mode) => {
    const t = new AltScreenTracker();
    t.feed(`hello\x1b[?${mode}h\x1b[2J`);
    expect(t.active).toBe(true);
    t.feed('drawing...');
    expect(t.active).toBe(true);
    t.feed(`bye\x1b[?${mode}l$ `);
    expect(t.active).toBe(false);
  });

  it('the last switch in a chunk wins', () => {
    expect(track('\x1b[?1049h..\x1b[?1049l..\x1b[?1049h')).toBe(true);
    expect(track('\x1b[?1049h..\x1b[?1049l')).toBe(false);
  });

  it('ignores other private modes and look-alikes', () => {
    expect(track('\x1b[?1000h\x1b[?25h\x1b[?2004h\x1b[?10490h\x1b[?104h\x1b[1049h\x1b[?1049$p')).toBe(false);
    expect(track('[?1049h')).toBe(false); // no ESC
    expect(track('\x1b[?1049h', '\x1b[?1000l\x1b[?104l')).toBe(true);
  });

  it('understands the mode among several parameters', () => {
    expect(track('\x1b[?1049;1006h')).toBe(true);
    expect(track('\x1b[?1000;1049h')).toBe(true);
    expect(track('\x1b[?1000;1049h', '\x1b[?25;47;1006l')).toBe(false);
  });

  it('a full reset (RIS) goes back to the main screen', () => {
    expect(track('\x1b[?1049h', 'x\x1bc')).toBe(false);
  });

  const SWITCHES = ['\x1b[?1049h', '\x1b[?1049l', '\x1b[?47h', '\x1b[?1047l', '\x1b[?1000;1049h', '\x1b[?1049;25l'];
  it.each(SWITCHES)('sees %j cut at every position', (seq) => {
    const want = seq.endsWith('h');
    for (let i = 0; i <= seq.length; i++) {
      const t = new AltScreenTracker();
      t.active = !want;
      t.feed('out\x1b[0m' + seq.slice(0, i));
      t.feed(seq.slice(i) + 'more\x1b[1m');
      expect(t.active, `cut at ${i}`).toBe(want);
    }
  });

  it('sees a sequence fed one character at a time, and each chunk boundary within a longer stream', () => {
    const stream = 'a\x1b[?1049hbc\x1b[31m\x1b[?1049ld\x1b[?47he\x1b[?1000;1047lf\x1b[?1049h';
    expect(track(...stream.split(''))).toBe(true);
    // Every two-way and three-way cut gives the same answer as the whole stream.
    for (let i = 0; i <= stream.length; i++) {
      expect(track(stream.slice(0, i), stream.slice(i)), `cut at ${i}`).toBe(true);
      for (let j = i; j <= stream.length; j++) {
        const prefix = stream.slice(0, j);
        expect(track(prefix.slice(0, i), prefix.slice(i)), `prefix ${j} cut at ${i}`).toBe(track(prefix));
      }
    }
  });

  it('does not count a sequence twice when the chunk ends right after it', () => {
    const t = new AltScreenTracker();
    t.feed('\x1b[?1049h');
    t.feed('\x1b[?1049l');
    expect(t.active).toBe(false);
    t.feed('');
    expect(t.active).toBe(false);
  });

  it('does not hold on to text without an unfinished sequence', () => {
    // A lone ESC followed by ordinary text must not join a later chunk into a fake match.
    expect(track('\x1b', 'x[?1049h')).toBe(false);
    expect(track('\x1b[?10', '4', '9', 'h')).toBe(true);
  });
});
