/**
 * Text measured as Ink measures it: string-width, memoized in Ink's own caches (inkTextWidth of
 * ./frame-cache.ts). The session list's rows are strings Ink never lays out (./list-lines.ts);
 * measured this way, a row takes in Ink's frame exactly the cells its columns say, and nothing
 * after it on the line (the border, the preview beside it) moves.
 */
import { textMeasure } from '../text-width.js';
import { inkTextWidth } from './frame-cache.js';

/** Characters remembered, at most: a session printing every script there is does not grow it without end. */
const CHARS_KEPT = 10_000;
const widths = new Map<string, number>();

/** Ink's width of one code point: string-width's slow path once per character. */
function inkCharWidth(c: string): number {
  let w = widths.get(c);
  if (w === undefined) {
    if (widths.size >= CHARS_KEPT) widths.clear();
    widths.set(c, (w = inkTextWidth(c)));
  }
  return w;
}

/** Cutting and fitting by Ink's measure. */
export const inkMeasure = textMeasure(inkCharWidth);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const CONTROL = /\p{Cc}/u;
/** A skin tone: string-width counts it two cells alone, a terminal none after its emoji. */
const MODIFIER = /\p{Emoji_Modifier}/u;

/**
 * A text of a row (a name, a last screen line) as the row shows it: composed (NFC: an accent and
 * its letter are one character), a control character (a tab) a space, and what Ink takes as no
 * width (a combining mark left over, a joiner, a variation selector) or what joins its neighbour
 * (a skin tone) left out. Ink's frame gives each character a cell at least, and a terminal none to
 * those: they would move everything after them on the line.
 */
export function rowText(s: string): string {
  if (PRINTABLE_ASCII.test(s)) return s;
  let out = '';
  for (const c of s.normalize('NFC')) {
    if (CONTROL.test(c)) out += ' ';
    else if (inkCharWidth(c) > 0 && !MODIFIER.test(c)) out += c;
  }
  return out;
}
