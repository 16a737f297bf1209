/**
 * What a detaching client writes so the user's terminal is as it was before
 * the session's program changed it: the program could have turned on any of
 * these through us, and it will not be there to turn them off.
 */
export function terminalRestoreSequence(altScreenActive: boolean): string {
  return [
    // Kitty keeps a keyboard-mode stack per screen: pop the alternate one before leaving it.
    altScreenActive ? '\x1b[<99u\x1b[?1049l' : '',
    '\x1b[?2026l', // synchronized output: a half-done update would hold the screen frozen
    '\x1b7\x1b[r\x1b[?6l\x1b8', // scroll region and origin mode, keeping the cursor where it is
    '\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l', // mouse
    '\x1b[?1004l', // focus events
    '\x1b[?2004l', // bracketed paste
    '\x1b[<99u', // kitty keyboard: pop the whole stack
    '\x1b[>4m', // modifyOtherKeys
    '\x1b[?1l\x1b>', // cursor keys and keypad back to normal
    '\x1b[4l', // insert mode off
    '\x1b(B\x0f', // G0 = ASCII and in use (no line-drawing characters left on)
    '\x1b[0m', // attributes
    '\x1b[?7h', // autowrap
    '\x1b[0 q', // cursor shape
    '\x1b[?25h', // cursor visible
  ].join('');
}

const ALT_SCREEN_MODES = new Set([1049, 1047, 47]);
/** A DEC private mode set/reset (any number of params), or RIS (ESC c). */
const MODE_OR_RESET = /\x1b(?:\[\?([0-9;]*)([hl])|c)/g;
/** The start of such a sequence, cut off at the end of a chunk. */
const PARTIAL = /^\x1b(?:\[(?:\?[0-9;]*)?)?$/;
/** Longer unfinished parameter lists are not kept (a runaway program). */
const MAX_CARRY = 64;

/**
 * Follows whether the alternate screen is on, across chunk boundaries, from
 * the bytes a client passes through to the user's terminal.
 */
export class AltScreenTracker {
  private carry = '';
  active = false;

  feed(data: string): void {
    // Most output has no escape at all (a `cat`): one search, and nothing more for it.
    if (!this.carry && data.indexOf('\x1b') === -1) return;
    // Most of the rest has no mode switch or reset: skip the regex for it.
    if (!this.carry && !data.includes('\x1b[?') && !data.includes('\x1bc')) {
      const esc = data.lastIndexOf('\x1b');
      if (data.length - esc > MAX_CARRY) return;
    }
    const text = this.carry + data;
    for (const m of text.matchAll(MODE_OR_RESET)) {
      if (m[2] === undefined) {
        this.active = false; // RIS switches back to the normal screen
        continue;
      }
      for (const p of m[1]!.split(';')) {
        if (ALT_SCREEN_MODES.has(Number(p))) this.active = m[2] === 'h';
      }
    }
    // Keep a tail that could be the start of a sequence cut by the chunk edge.
    const esc = text.lastIndexOf('\x1b');
    const tail = esc === -1 ? '' : text.slice(esc);
    this.carry = tail.length <= MAX_CARRY && PARTIAL.test(tail) ? tail : '';
  }
}

/**
 * Puts the cursor at the start of a line of its own, for a message after an attach, without
 * knowing where the program left it and without asking the terminal (a late answer to a cursor
 * query would land in the user's shell). `cols` blanks from column 0 end on the same row, the
 * wrap still pending, and the CR goes back to its start; from any other column they wrap onto the
 * next row, where the CR lands. The rest of that row is cleared. zsh's PROMPT_SP does the same;
 * autowrap must be on (the restore sequence turns it on).
 */
export function freshLine(cols: number): string {
  return ' '.repeat(Math.max(1, cols)) + '\r\x1b[K';
}
