/**
 * What the limit detectors share: reading a screen's rows as the blocks an agent printed. A CLI
 * wraps a long message over several rows; a block is those rows joined (a blank row, a rule or a
 * box's edge ends it), with the box's side borders taken off.
 */

/** A row without a box's side borders (`│ text │`) and surrounding blanks. */
export function bare(row: string): string {
  return row.replace(/^\s*[│┃|]\s?/, '').replace(/\s?[│┃|]\s*$/, '').trim();
}

/** A row that ends a block: blank, a rule (`────`), a box's top or bottom edge. */
export function isBreak(row: string): boolean {
  const b = bare(row);
  return b === '' || /^[─━═▀▄╭╮╰╯┌┐└┘\s-]{3,}$/.test(row.trim());
}

/** The block that starts at row `i`: it and the rows after it up to a break, joined by single spaces. */
export function blockAt(rows: readonly string[], i: number): { text: string; end: number } {
  const parts: string[] = [];
  let j = i;
  for (; j < rows.length; j++) {
    if (j > i && isBreak(rows[j]!)) break;
    parts.push(bare(rows[j]!));
  }
  return { text: parts.join(' ').replace(/\s+/g, ' ').trim(), end: j };
}

/** The index of the last row matching `re` (tested bare), else -1. */
export function lastRow(rows: readonly string[], re: RegExp, from = 0): number {
  for (let i = rows.length - 1; i >= from; i--) if (re.test(bare(rows[i]!))) return i;
  return -1;
}

/** At most this many characters of the agent's words are kept (for explain and the notification). */
const LINE_MAX = 300;

export function oneLine(text: string): string {
  return text.length > LINE_MAX ? `${text.slice(0, LINE_MAX - 1)}…` : text;
}
