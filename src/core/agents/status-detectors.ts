/**
 * Per-kind status detectors: what an agent's window title and its screen say
 * about what it is doing (the title and screen layers of the layered status,
 * see src/core/agents/activity.ts). The patterns are data: one rule file per kind in
 * src/core/agents/rules/ (compiled by src/core/agents/kind-rules.ts, with the user's own
 * file on top), each read off the real recordings in test/fixtures/recordings
 * (its "why" names the recording) and checked against them at labelled
 * moments by test/integration/detectors-recordings.test.ts.
 *
 * Rules of the tables:
 * - A pattern says one activity. When several match, `waiting` (a dialog:
 *   the agent needs the user) beats `busy`, which beats `idle`: the busy
 *   screens of Claude, Codex and Gemini keep their idle hints (`? for
 *   shortcuts`, the empty prompt) on screen, and a dialog can sit on top of
 *   anything.
 * - A screen pattern looks only where the live part of the program is drawn
 *   (`where`): agents that do not use the alternate screen leave their old
 *   frames above the live one, so a dialog that was answered a moment ago is
 *   still on screen, higher up.
 * - Nothing matches: null. The layer below (bytes) decides then.
 *
 * Pure: no Node, no terminal. The caller passes the title as the program set
 * it (OSC 0/2) and the visible rows as text.
 */
import type { Activity } from './activity.js';

/** Where on the screen a pattern looks. */
export type ScreenRegion =
  /** Every visible row (full-screen programs in the alternate screen: the whole frame is live). */
  | { kind: 'screen' }
  /** From the `lines`-th last non-blank row down to the bottom, blank rows included (the live region at the bottom of inline TUIs). */
  | { kind: 'tail'; lines: number }
  /**
   * The rows of a rounded box (`╭` ... `╰`) that is the last thing on the
   * screen: Gemini CLI draws its dialogs that way, and once one is answered
   * something is printed under it, so a stale dialog higher up never counts.
   */
  | { kind: 'lastBox' };

export interface TitlePattern {
  /** `kind.what`, for tests, logs and `explain`. */
  name: string;
  /** The rule file that defines it. */
  file?: string;
  activity: Activity;
  /** Tested against the title with surrounding blanks removed. */
  match: RegExp;
}

export interface ScreenPattern {
  name: string;
  file?: string;
  activity: Activity;
  where: ScreenRegion;
  /**
   * One expression per row, matched against consecutive rows of the region
   * (each row with surrounding blanks removed); a single expression is a
   * one-row pattern.
   */
  match: readonly RegExp[];
  /**
   * The index of the one expression of `match` that may match any number of
   * consecutive rows, none included: the rest of an editor's text that wraps
   * or holds several lines, between its two rules.
   */
  repeat?: number;
}

export interface KindDetectors {
  title: readonly TitlePattern[];
  screen: readonly ScreenPattern[];
}

/** Which reading wins when several patterns of one source match. */
export const ACTIVITY_PRIORITY: Readonly<Record<Activity, number>> = Object.freeze({ waiting: 3, busy: 2, idle: 1, starting: 0 });

// ---------------------------------------------------------------------------
// Reading them

/** A pattern that matched, and what it matched: for `explain`. */
export interface DetectorMatch {
  activity: Activity;
  pattern: TitlePattern | ScreenPattern;
  /** The title, or the first row the pattern matched. */
  evidence: string;
}

function bestMatch(matches: readonly DetectorMatch[]): DetectorMatch | null {
  let out: DetectorMatch | null = null;
  for (const m of matches) if (out === null || ACTIVITY_PRIORITY[m.activity] > ACTIVITY_PRIORITY[out.activity]) out = m;
  return out;
}

/** What the window title says (null: nothing), and which pattern said it. */
export function matchTitle(table: KindDetectors, title: string): DetectorMatch | null {
  const text = title.trim();
  if (text === '' || table.title.length === 0) return null;
  return bestMatch(table.title.filter((p) => p.match.test(text)).map((pattern) => ({ activity: pattern.activity, pattern, evidence: text })));
}

/**
 * What the screen says (null: nothing), and which pattern said it. `lines`:
 * the visible rows, top to bottom (trailing blanks may be left on; they are
 * ignored).
 */
export function matchScreen(table: KindDetectors, lines: readonly string[]): DetectorMatch | null {
  if (table.screen.length === 0) return null;
  const rows = lines.map((l) => l.trim());
  const found: DetectorMatch[] = [];
  for (const pattern of table.screen) {
    const at = screenPatternRow(pattern, rows);
    if (at !== null) found.push({ activity: pattern.activity, pattern, evidence: at });
  }
  return bestMatch(found);
}

/** What the window title says, or null (a kind without title patterns, or a title that says nothing). */
export function activityFromTitle(table: KindDetectors, title: string): Activity | null {
  return matchTitle(table, title)?.activity ?? null;
}

/** What the screen says, or null. */
export function activityFromScreen(table: KindDetectors, lines: readonly string[]): Activity | null {
  return matchScreen(table, lines)?.activity ?? null;
}

/** The rows `where` covers, already trimmed. */
export function screenRegion(where: ScreenRegion, rows: readonly string[]): readonly string[] {
  switch (where.kind) {
    case 'screen':
      return rows;
    case 'tail': {
      let seen = 0;
      for (let y = rows.length - 1; y >= 0; y--) {
        if (rows[y] !== '' && ++seen === where.lines) return rows.slice(y);
      }
      return rows;
    }
    case 'lastBox': {
      let bottom = rows.length - 1;
      while (bottom >= 0 && rows[bottom] === '') bottom--;
      if (bottom < 0 || !rows[bottom]!.startsWith('╰')) return [];
      for (let y = bottom - 1; y >= 0; y--) if (rows[y]!.startsWith('╭')) return rows.slice(y, bottom + 1);
      return [];
    }
  }
}

/** The first row where a pattern matches these rows (trimmed, as matchScreen passes them), or null. */
function screenPatternRow(pattern: ScreenPattern, rows: readonly string[]): string | null {
  const region = screenRegion(pattern.where, rows);
  for (let y = 0; y < region.length; y++) if (matchesFrom(pattern, region, 0, y)) return region[y]!;
  return null;
}

/** Whether the pattern's expressions from the k-th on match the region's rows from row y on (the `repeat` one over any number of rows). */
function matchesFrom(pattern: ScreenPattern, region: readonly string[], k: number, y: number): boolean {
  if (k === pattern.match.length) return true;
  const re = pattern.match[k]!;
  if (k !== pattern.repeat) return y < region.length && re.test(region[y]!) && matchesFrom(pattern, region, k + 1, y + 1);
  let end = y;
  while (end < region.length && re.test(region[end]!)) end++;
  for (let stop = end; stop >= y; stop--) if (matchesFrom(pattern, region, k + 1, stop)) return true;
  return false;
}

/** Whether one pattern matches these rows (trimmed). */
export function screenPatternMatches(pattern: ScreenPattern, rows: readonly string[]): boolean {
  return screenPatternRow(pattern, rows) !== null;
}
