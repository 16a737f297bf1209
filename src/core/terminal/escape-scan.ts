/**
 * Where a terminal's parser is after some output: between sequences
 * (`ground`), or inside an escape sequence, a CSI, or a string (OSC, DCS,
 * APC, PM, SOS). Something of our own (a BEL, an OSC notification) may only
 * go into a stream of someone else's output at ground: a BEL inside an OSC
 * would end it early, an ESC inside a CSI would cut it. Output is text
 * (whole characters), so a UTF-8 sequence is never split.
 */
export type ScanState = 'ground' | 'esc' | 'esc-inter' | 'csi' | 'string' | 'string-esc';

const ESC = 0x1b;
const CAN = 0x18;
const SUB = 0x1a;
const BEL = 0x07;

/** After ESC: which sequence the next character opens. */
function afterEsc(c: number): ScanState {
  if (c === 0x5b) return 'csi'; // [
  if (c === 0x5d || c === 0x50 || c === 0x5f || c === 0x5e || c === 0x58) return 'string'; // ] P _ ^ X
  if (c < 0x20) return 'esc'; // ESC again, or a control executed inside: the escape goes on
  if (c <= 0x2f) return 'esc-inter'; // intermediates: ESC ( B and the like
  return 'ground'; // a final character
}

export function scanEscapes(state: ScanState, text: string): ScanState {
  let st = state;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === CAN || c === SUB) {
      st = 'ground'; // cancels whatever sequence was open
      continue;
    }
    switch (st) {
      case 'ground':
        if (c === ESC) st = 'esc';
        else if (c === 0x9b) st = 'csi';
        else if (c === 0x9d || c === 0x90 || c === 0x9f || c === 0x9e || c === 0x98) st = 'string';
        break;
      case 'esc':
        st = afterEsc(c);
        break;
      case 'esc-inter':
        if (c === ESC) st = 'esc';
        else if (c >= 0x30 && c <= 0x7e) st = 'ground';
        break;
      case 'csi':
        if (c === ESC) st = 'esc';
        else if (c >= 0x40 && c <= 0x7e) st = 'ground';
        break;
      case 'string':
        if (c === BEL || c === 0x9c) st = 'ground';
        else if (c === ESC) st = 'string-esc';
        break;
      case 'string-esc':
        // ESC \ ends the string; any other ESC ends it and starts a sequence of its own.
        st = c === 0x5c ? 'ground' : afterEsc(c);
        break;
    }
  }
  return st;
}
