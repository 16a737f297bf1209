/**
 * Text that Ink measures as ASCII and draws as it is. Ink measures every text of the screen on
 * every frame (string-width, in its renderNodeToOutput, not memoized), and one character past
 * ASCII sends a whole text down string-width's slow path (a grapheme segmenter and a few regular
 * expressions per character: about 25 µs for a row's four glyphs, half a millisecond for a
 * preview line of box drawing). So such a text goes to Ink in a shape of the same cells, each
 * character past ASCII an `x`, and a top-level <Transform> (applied when Ink writes the frame,
 * after it measured and laid out) puts the real characters back. Only characters that are one
 * cell for string-width on their own and cannot join a neighbour (no combining mark, joiner,
 * variation selector, wide or emoji character) are shaped; a text with any other is left as it
 * is, so the screen is the same cell for cell (test/ui/ascii-shape.test.tsx compares them with plain <Text>s).
 */
import { inkTextWidth } from './frame-cache.js';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Latin-1 and Latin extended, general punctuation, arrows, maths, box drawing, shapes, dingbats: candidates, each checked once. */
const CANDIDATE = /^[\u00a0-\u02ff\u2010-\u205f\u2070-\u2bff]$/;
const PLACEHOLDER = 'x';
/** Per character past ASCII: one cell alone, whatever its neighbours (string-width's own answer). */
const oneCell = new Map<string, boolean>();

function shapeable(c: string): boolean {
  let ok = oneCell.get(c);
  if (ok === undefined) {
    // Never the first character of a pair that string-width could count as one grapheme: it
    // takes two only with a second character that is itself not shapeable.
    ok = CANDIDATE.test(c) && inkTextWidth(c) === 1 && inkTextWidth(`${c}a`) === 2 && inkTextWidth(`a${c}`) === 2;
    oneCell.set(c, ok);
  }
  return ok;
}

/** `text` with each character past ASCII an `x`; `text` itself when it is all ASCII; null when it cannot be shaped. */
export function asciiShape(text: string): string | null {
  if (PRINTABLE_ASCII.test(text)) return text;
  return text.length === 1 ? shapeOne(text) : shapeAll(text);
}

/** A row's glyph: one of a few, each shaped once. */
const glyphs = new Map<string, string | null>();
function shapeOne(c: string): string | null {
  let s = glyphs.get(c);
  if (s === undefined) glyphs.set(c, (s = shapeAll(c)));
  return s;
}

function shapeAll(text: string): string | null {
  let out = '';
  for (const c of text) {
    if (c >= '\x20' && c <= '\x7e') out += c;
    else if (shapeable(c)) out += PLACEHOLDER;
    else return null;
  }
  return out;
}

/**
 * The line Ink made of shaped parts (their styles' escape sequences around the placeholders),
 * with `real`'s characters put back in order: every visible character is the next one of
 * `real` (a shaped text has one character per character of the real one).
 */
export function unshape(styled: string, real: string): string {
  let out = '';
  let k = 0;
  for (let i = 0; i < styled.length; i++) {
    const c = styled[i]!;
    if (c === '\x1b' && styled[i + 1] === '[') {
      // A CSI sequence (the styles' SGR): up to its final byte.
      let j = i + 2;
      while (j < styled.length && (styled.charCodeAt(j) < 0x40 || styled.charCodeAt(j) > 0x7e)) j++;
      out += styled.slice(i, j + 1);
      i = j;
      continue;
    }
    out += k < real.length ? real[k] : c;
    k++;
  }
  return out;
}
