/**
 * What a detaching client writes so the user's terminal is as it was before
 * the session's program changed it: the program could have turned on any of
 * these through us, and it will not be there to turn them off.
 */
export function terminalRestoreSequence(altScreenActive: boolean): string {
  return [
    altScreenActive ? '\x1b[?1049l' : '',
    '\x1b7\x1b[r\x1b[?6l\x1b8', // scroll region and origin mode, keeping the cursor where it is
    '\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l', // mouse
    '\x1b[?1004l', // focus events
    '\x1b[?2004l', // bracketed paste
    '\x1b[<99u', // kitty keyboard: pop the whole stack
    '\x1b[>4m', // modifyOtherKeys
    '\x1b[?1l\x1b>', // cursor keys and keypad back to normal
    '\x1b[0m', // attributes
    '\x1b[?7h', // autowrap
    '\x1b[0 q', // cursor shape
    '\x1b[?25h', // cursor visible
  ].join('');
}

/**
 * Follows whether the alternate screen is on, across chunk boundaries, from
 * the bytes a client passes through to the user's terminal.
 */
export class AltScreenTracker {
  private carry = '';
  active = false;

  feed(data: string): void {
    const text = this.carry + data;
    const re = /\x1b\[\?(1049|1047|47)([hl])/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) this.active = m[2] === 'h';
    // Keep a tail that could be the start of a sequence cut by the chunk edge.
    const esc = text.lastIndexOf('\x1b');
    this.carry = esc !== -1 && text.length - esc < 8 ? text.slice(esc) : '';
  }
}
