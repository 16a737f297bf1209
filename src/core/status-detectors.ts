/**
 * Per-kind status detectors: what an agent's window title and its screen say
 * about what it is doing (layers (b) and (c) of the layered status, see
 * src/core/activity.ts). The patterns are data, one table per agent kind,
 * each read off the real recordings in test/fixtures/recordings (the
 * recording is named next to every pattern) and checked against them at
 * labelled moments by test/integration/detectors-recordings.test.ts.
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
  /** `kind.what`, for tests and logs. */
  name: string;
  activity: Activity;
  /** Tested against the title with surrounding blanks removed. */
  match: RegExp;
}

export interface ScreenPattern {
  name: string;
  activity: Activity;
  where: ScreenRegion;
  /**
   * One expression per row, matched against consecutive rows of the region
   * (each row with surrounding blanks removed); a single expression is a
   * one-row pattern.
   */
  match: readonly RegExp[];
}

export interface KindDetectors {
  title: readonly TitlePattern[];
  screen: readonly ScreenPattern[];
}

/** Which reading wins when several patterns of one source match. */
export const ACTIVITY_PRIORITY: Readonly<Record<Activity, number>> = Object.freeze({ waiting: 3, busy: 2, idle: 1, starting: 0 });

// ---------------------------------------------------------------------------
// Shared expressions

/**
 * A braille spinner cell, a space, then a word: `⠼ Thinking...`,
 * `⠋ Working...`, `⠙ Retrying (1/3)`. One cell followed by a letter, so a
 * picture drawn in braille (Codex's logo: runs of braille with no letters)
 * does not count.
 */
const BRAILLE_SPINNER_LINE = /^[\u2800-\u28FF] +\p{L}/u;
/** A title that starts with a braille spinner cell. */
const BRAILLE_SPINNER_TITLE = /^[\u2800-\u28FF](\s|$)/;
/** A horizontal rule across the screen, as Claude Code and pi draw around their prompt. */
const RULE = /^─{8,}$/;

// ---------------------------------------------------------------------------
// The tables

export const STATUS_DETECTORS: Readonly<Record<string, KindDetectors>> = Object.freeze({
  // A shell's status comes from byte activity only: nothing here.
  shell: { title: [], screen: [] },

  claude: {
    title: [
      // claude-120x35: `⠂ Claude Code` / `⠐ Claude Code` during both turns.
      { name: 'claude.title.spinner', activity: 'busy', match: BRAILLE_SPINNER_TITLE },
      // claude-120x35: `✳ Claude Code` at the prompt. (No title at all under the API-key dialog.)
      { name: 'claude.title.ready', activity: 'idle', match: /^✳(\s|$)/ },
    ],
    screen: [
      // claude-120x35, 0.5 s to 7.5 s: "Do you want to use this API key?" above "1. Yes / 2. No".
      { name: 'claude.screen.apiKeyDialog', activity: 'waiting', where: { kind: 'tail', lines: 8 }, match: [/^Do you want to use this API key\?/] },
      // claude-120x35: the footer of that dialog, the same under Claude's other select dialogs.
      { name: 'claude.screen.dialogFooter', activity: 'waiting', where: { kind: 'tail', lines: 2 }, match: [/^Enter to confirm · Esc to cancel\b/] },
      // claude-120x35: the footer under the prompt box for the whole of a turn (`esc to interrupt · ← for agents`).
      { name: 'claude.screen.escToInterrupt', activity: 'busy', where: { kind: 'tail', lines: 4 }, match: [/\besc to interrupt\b/] },
      // claude-120x35: the footer at the prompt (`? for shortcuts · ← for agents`); it goes while the user types.
      { name: 'claude.screen.forShortcuts', activity: 'idle', where: { kind: 'tail', lines: 4 }, match: [/^\? for shortcuts\b/] },
      // claude-120x35: the empty prompt box, `❯` alone between two rules (busy too, but busy wins).
      { name: 'claude.screen.emptyPrompt', activity: 'idle', where: { kind: 'tail', lines: 6 }, match: [RULE, /^❯$/, RULE] },
    ],
  },

  codex: {
    title: [
      // codex-turns-120x35: `⠋ app`, then `⠸ <prompt> | app` while a turn runs.
      { name: 'codex.title.spinner', activity: 'busy', match: BRAILLE_SPINNER_TITLE },
      // codex-turns-120x35: the plain folder name (`app`, then `<prompt> | app`) otherwise.
      // Codex sets no title before its prompt (none at the sign-in menu in codex-120x35).
      { name: 'codex.title.plain', activity: 'idle', match: /^[^\u2800-\u28FF\s]/ },
    ],
    screen: [
      // codex-120x35: the sign-in menu in the alternate screen, `> 1. Sign in with ChatGPT`, until Esc.
      { name: 'codex.screen.signInMenu', activity: 'waiting', where: { kind: 'screen' }, match: [/^(?:[›>]\s*)?\d\.\s+Sign in with ChatGPT\b/] },
      // codex-turns-120x35: `• Working (0s • esc to interrupt)` above the composer until the reply streams.
      { name: 'codex.screen.escToInterrupt', activity: 'busy', where: { kind: 'tail', lines: 8 }, match: [/\besc to interrupt\b/] },
      // No idle pattern: in codex-turns-120x35 `? for shortcuts` and the composer's
      // `Ask Codex to do anything` stay on screen for the whole turn, and while the
      // reply streams the Working line is gone, so the screen cannot tell streaming
      // from idle. The title can.
    ],
  },

  gemini: {
    title: [
      // gemini-turns-120x35: `✦  Working… (app)` during a turn (Gemini pads the title with spaces).
      // Its dynamic title also puts the thought's subject after ✦, and ⏲ when working silently.
      { name: 'gemini.title.working', activity: 'busy', match: /^[✦⏲]\s/ },
      // gemini-120x35 and gemini-turns-120x35: `◇  Ready (app)`. Note: also under the trust dialog.
      { name: 'gemini.title.ready', activity: 'idle', match: /^◇\s/ },
      // Not in the recordings: Gemini CLI's dynamic title for a tool confirmation, `✋  Action Required (app)`.
      { name: 'gemini.title.actionRequired', activity: 'waiting', match: /^✋\s/ },
    ],
    screen: [
      // gemini-120x35, 2.5 s to 7 s: the folder-trust dialog.
      { name: 'gemini.screen.trustDialog', activity: 'waiting', where: { kind: 'lastBox' }, match: [/Do you trust the files in this folder\?/] },
      // gemini-120x35, from 9.4 s: the authentication dialog after the restart.
      { name: 'gemini.screen.authDialog', activity: 'waiting', where: { kind: 'lastBox' }, match: [/How would you like to authenticate\b/] },
      // gemini-120x35, 2.4 s and 9.2 s: `⠋ Waiting for authentication... (Press Esc or Ctrl+C to cancel)`.
      // With an API key it passes in a moment; a browser sign-in waits here for the user.
      { name: 'gemini.screen.waitingForAuth', activity: 'waiting', where: { kind: 'lastBox' }, match: [/Waiting for authentication\b/] },
      // gemini-turns-120x35: `⠼ Thinking... (esc to cancel, 1s)` above the composer during a turn.
      { name: 'gemini.screen.spinner', activity: 'busy', where: { kind: 'tail', lines: 10 }, match: [BRAILLE_SPINNER_LINE] },
      { name: 'gemini.screen.escToCancel', activity: 'busy', where: { kind: 'tail', lines: 10 }, match: [/\besc to cancel\b/] },
      // gemini-turns-120x35: the empty composer, `>   Type your message or @path/to/file` (during a turn too).
      { name: 'gemini.screen.emptyPrompt', activity: 'idle', where: { kind: 'tail', lines: 5 }, match: [/^>\s+Type your message\b/] },
    ],
  },

  // Our demo agent (src/demo) speaks like Claude Code on purpose: a braille spinner title and
  // `esc to interrupt` while it works, `✳` and `? for shortcuts` at its prompt.
  demo: {
    title: [
      { name: 'demo.title.spinner', activity: 'busy', match: BRAILLE_SPINNER_TITLE },
      { name: 'demo.title.ready', activity: 'idle', match: /^✳(\s|$)/ },
    ],
    screen: [
      { name: 'demo.screen.escToInterrupt', activity: 'busy', where: { kind: 'tail', lines: 6 }, match: [/\besc to interrupt\b/] },
      { name: 'demo.screen.forShortcuts', activity: 'idle', where: { kind: 'tail', lines: 4 }, match: [/\? for shortcuts\b/] },
    ],
  },

  pi: {
    // pi-turns-120x35: the title is always `π - app`: no status in it.
    title: [],
    screen: [
      // pi-turns-120x35: `⠇ Working...` above the editor during a turn; pi-120x35: `⠙ Retrying (1/3) in 2s...
      // (escape to cancel)` when no model answers. Far enough up for the `/` menu under it (pi-120x35, 9 s).
      // Not `escape interrupt`: pi's startup help says that at the idle prompt.
      { name: 'pi.screen.spinner', activity: 'busy', where: { kind: 'tail', lines: 15 }, match: [BRAILLE_SPINNER_LINE] },
      // pi-120x35 and pi-turns-120x35: the empty editor, a blank row between two rules, above the footer.
      { name: 'pi.screen.emptyEditor', activity: 'idle', where: { kind: 'tail', lines: 6 }, match: [RULE, /^$/, RULE] },
    ],
  },
});

// ---------------------------------------------------------------------------
// Reading them

function best<T extends { activity: Activity }>(matches: readonly T[]): Activity | null {
  let out: Activity | null = null;
  for (const m of matches) if (out === null || ACTIVITY_PRIORITY[m.activity] > ACTIVITY_PRIORITY[out]) out = m.activity;
  return out;
}

/** What the window title says, or null (unknown kind, shell, pi, or a title that says nothing). */
export function activityFromTitle(kind: string, title: string): Activity | null {
  const table = Object.hasOwn(STATUS_DETECTORS, kind) ? STATUS_DETECTORS[kind] : undefined;
  if (!table) return null;
  const text = title.trim();
  if (text === '') return null;
  return best(table.title.filter((p) => p.match.test(text)));
}

/**
 * What the screen says, or null. `lines`: the visible rows, top to bottom
 * (trailing blanks may be left on; they are ignored).
 */
export function activityFromScreen(kind: string, lines: readonly string[]): Activity | null {
  const table = Object.hasOwn(STATUS_DETECTORS, kind) ? STATUS_DETECTORS[kind] : undefined;
  if (!table || table.screen.length === 0) return null;
  const rows = lines.map((l) => l.trim());
  return best(table.screen.filter((p) => screenPatternMatches(p, rows)));
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

/** Whether one pattern matches these rows (trimmed, as activityFromScreen passes them). */
export function screenPatternMatches(pattern: ScreenPattern, rows: readonly string[]): boolean {
  const region = screenRegion(pattern.where, rows);
  const n = pattern.match.length;
  for (let y = 0; y + n <= region.length; y++) {
    let ok = true;
    for (let k = 0; k < n && ok; k++) ok = pattern.match[k]!.test(region[y + k]!);
    if (ok) return true;
  }
  return false;
}
