/**
 * The question and numbered options of a dialog on an agent's screen, read
 * off the screen text, for the board's preview of a `waiting` session (the
 * digits 1-9 answer it). Pure: rows of text in, the dialog or null out.
 *
 * Shapes read off test/fixtures/recordings:
 * - Claude's API-key dialog: "Do you want to use this API key?", then
 *   "    1. Yes" / "  ❯ 2. No (recommended)", no box.
 * - Gemini's folder-trust and sign-in dialogs, in a rounded box (╭ │ ╰):
 *   "│ ● 1. Trust folder (app) │"; above the box, its tips are a numbered
 *   list too ("1. Create GEMINI.md files..."), so a box at the bottom is the
 *   only place looked at.
 * - Codex's sign-in menu: "> 1. Sign in with ChatGPT" with a description
 *   line under each option, and no question mark above them ("Choose how you
 *   want to use Codex.").
 * What tells a dialog from a numbered list the program printed (Gemini's tips
 * at its idle prompt) is the cursor: exactly one option carries it.
 */

export interface DialogOption {
  /** The digit that picks it. */
  number: number;
  label: string;
  /** The program's cursor is on it (❯, ›, >, ●). */
  selected: boolean;
}

export interface DialogText {
  /** The question, or the line that introduces the options; '' when none is found. */
  question: string;
  options: DialogOption[];
}

const OPTION = /^(?:([❯›>●▸])\s*)?([1-9])[.)]\s+(\S.*)$/;
const RULE = /^[─━-]{3,}$/;
/** Lines between two options (a description, a blank) and between the question and the first option. */
const MAX_OPTION_GAP = 3;
const MAX_QUESTION_DISTANCE = 10;

/** A box's inside row without its borders; null for a box's top or bottom edge. */
function unboxed(row: string): string | null {
  if (/^[╭╰]/.test(row)) return null;
  const m = /^│(.*?)│?$/.exec(row);
  return (m ? m[1]! : row).trim();
}

/** The rows to look at: the inside of a box that ends the screen, else the whole screen (trimmed). */
function dialogRegion(lines: readonly string[]): string[] {
  const rows = lines.map((l) => l.trim());
  let bottom = rows.length - 1;
  while (bottom >= 0 && rows[bottom] === '') bottom--;
  if (bottom >= 0 && rows[bottom]!.startsWith('╰')) {
    for (let y = bottom - 1; y >= 0; y--) {
      if (rows[y]!.startsWith('╭')) return rows.slice(y + 1, bottom).map((r) => unboxed(r) ?? '');
    }
  }
  return rows;
}

interface OptionRow {
  y: number;
  option: DialogOption;
}

function optionAt(row: string, y: number): OptionRow | null {
  const m = OPTION.exec(row);
  return m ? { y, option: { number: Number(m[2]), label: m[3]!.trim(), selected: m[1] !== undefined } } : null;
}

/**
 * The last run of options numbered 1, 2, ... n (n >= 2) on the rows, each
 * within a few rows of the one before, one of them under the cursor: dialogs
 * sit at the bottom, lists the program printed earlier sit above them.
 */
function lastOptionRun(rows: readonly string[]): OptionRow[] | null {
  const found = rows.flatMap((r, y) => optionAt(r, y) ?? []);
  for (let end = found.length - 1; end >= 0; end--) {
    const run = [found[end]!];
    for (let i = end - 1; i >= 0 && run[0]!.option.number > 1; i--) {
      const o = found[i]!;
      if (run[0]!.y - o.y > MAX_OPTION_GAP + 1) break;
      if (o.option.number === run[0]!.option.number - 1) run.unshift(o);
      else break;
    }
    if (run[0]!.option.number === 1 && run.length >= 2 && run.filter((r) => r.option.selected).length === 1) return run;
  }
  return null;
}

/** Above the first option: the nearest line that asks (ends in ?), else the nearest line of text; not past a rule. */
function questionAbove(rows: readonly string[], first: number): string {
  let nearest = '';
  for (let y = first - 1; y >= 0 && first - y <= MAX_QUESTION_DISTANCE; y--) {
    const r = rows[y]!;
    if (RULE.test(r)) break;
    if (r === '') continue;
    if (r.endsWith('?')) return r;
    nearest ||= r;
  }
  return nearest;
}

/** The dialog on the screen (its rows, top to bottom), or null when there are no numbered options. */
export function dialogText(lines: readonly string[]): DialogText | null {
  const rows = dialogRegion(lines);
  const run = lastOptionRun(rows);
  if (!run) return null;
  return { question: questionAbove(rows, run[0]!.y), options: run.map((r) => r.option) };
}
