/**
 * Terminal cell widths, enough for the board: wide East Asian characters and
 * emoji take two cells, combining marks none. Used to cut text to a column
 * count exactly (Ink would add an ellipsis, and wrap otherwise). The same
 * cutting over another measure of a character: `textMeasure` (the session
 * list measures as Ink does: src/ui/ink/ink-width.ts).
 */

const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xa000, 0xa4cf], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60],
  [0xffe0, 0xffe6], [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

export function cellWidth(cp: number): number {
  if (cp === 0 || (cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

/** Printable ASCII: a cell per character (most of what the board measures, every frame). */
const ASCII = /^[\x20-\x7e]*$/;

/** Words give way to an ellipsis only this far back: a longer last word is cut inside it. */
const WORD_SLACK = 0.4;

/** Texts cut and fitted to cells, by one measure of a character (a code point, as a string). */
export interface TextMeasure {
  width(s: string): number;
  /** The longest start of `s` that fits in `width` cells. */
  cut(s: string, width: number): string;
  /** `s` cut or padded with spaces to exactly `width` cells; `ellipsis` marks a cut. */
  fit(s: string, width: number, ellipsis?: boolean): string;
  /**
   * `s` as it fits in `width` cells, for prose (a row's last line, a dialog's
   * question, a message): when it is longer, cut after its last whole word
   * that fits, with an ellipsis, so no word is shown half; a last word longer
   * than a good part of the width (a path, a URL) is cut inside, ellipsis too.
   */
  cutWords(s: string, width: number): string;
}

/** The cutting and fitting of text-width.ts over `charWidth` (printable ASCII is a cell a character whatever it says). */
export function textMeasure(charWidth: (c: string) => number): TextMeasure {
  const width = (s: string): number => {
    if (ASCII.test(s)) return s.length;
    let w = 0;
    for (const c of s) w += charWidth(c);
    return w;
  };
  const cut = (s: string, cells: number): string => {
    if (ASCII.test(s)) return s.slice(0, Math.max(0, cells));
    let w = 0;
    let out = '';
    for (const c of s) {
      const cw = charWidth(c);
      if (w + cw > cells) break;
      w += cw;
      out += c;
    }
    return out;
  };
  const fit = (s: string, cells: number, ellipsis = false): string => {
    if (cells <= 0) return '';
    const w = width(s);
    if (w <= cells) return s + ' '.repeat(cells - w);
    const kept = ellipsis ? cut(s, cells - 1) + '…' : cut(s, cells);
    return kept + ' '.repeat(cells - width(kept));
  };
  const cutWords = (s: string, cells: number): string => {
    if (width(s) <= cells) return s;
    if (cells <= 1) return cut(s, cells);
    const head = cut(s, cells - 1);
    // Where the cut fell: between words (the next character is a space) or inside one.
    const between = /\s/.test(s.charAt(head.length)) || /\s$/.test(head);
    const wordStart = between ? head.length : head.search(/\S*$/);
    const kept = wordStart > 0 && width(head.slice(wordStart)) <= cells * WORD_SLACK ? head.slice(0, wordStart) : head;
    // No dangling separator or second ellipsis before ours: `chat… (` ends as `chat…`.
    return kept.replace(/[\s…·,;:(\[{\-–—]+$/u, '') + '…';
  };
  return { width, cut, fit, cutWords };
}

/** The terminal's measure (cellWidth). */
const terminal = textMeasure((c) => cellWidth(c.codePointAt(0)!));

export const textWidth = terminal.width;
export const cut = terminal.cut;
export const fit = terminal.fit;
export const cutWords = terminal.cutWords;

/**
 * A screen's row in a narrower pane: when it is wider, cut so an ellipsis takes the pane's last
 * column (the screen goes on), a word the cut would halve blanked out rather than shown in part
 * (unless it is long against the width: a rule, a path); what is left keeps its columns.
 */
export function cropRow(row: string, width: number): string {
  if (textWidth(row) <= width) return row;
  if (width <= 1) return cut(row, width);
  const head = cut(row, width - 1);
  const inWord = /\S$/.test(head) && /^\S/.test(row.slice(head.length));
  const start = inWord ? head.search(/\S*$/) : head.length;
  const kept = inWord && start > 0 && textWidth(head.slice(start)) <= width * WORD_SLACK ? head.slice(0, start) : head;
  return kept + ' '.repeat(width - 1 - textWidth(kept)) + '…';
}
