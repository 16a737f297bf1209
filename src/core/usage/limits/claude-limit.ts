/**
 * Claude Code's usage limit on its screen (docs/usage.md, "Usage limits"). Signed in to a plan, a
 * 429 whose `anthropic-ratelimit-unified-*` headers say `rejected` makes it print, under the prompt:
 *
 *   ❯ Say hello
 *     ⎿  You've hit your 5-hour limit · resets 12:28am (Europe/Paris)
 *   ● Usage limit reached · set to continue automatically at 12:28am
 *   ...
 *     ⚠ Usage limit reached · limit resets 12:28am          (below the input box)
 *
 * (`session limit`, `weekly limit`, `Opus limit`; more than a day ahead: `resets Dec 6, 3pm (...)`.)
 * The weekly limit asks instead of the input box: `What do you want to do?` `1. Stop and wait for
 * limit to reset` `2. Wait here, then continue automatically at Dec 6, 4:41am` `3. Upgrade your plan`.
 * With an API key the same 429 is `● API Error: Request rejected (429) · ...`, with no reset time.
 * Only the latest turn counts: a limit line with a prompt or an answer after it is history.
 */
import type { LimitSeen } from '../usage-types.js';
import { bare, blockAt, lastRow, oneLine } from './limit-screen.js';
import { nextClockTime, parseClock, parseDateTime, zoneOrLocal, type Zone } from './limit-time.js';
import { isoTime } from '../../iso-time.js';

const HIT = /^⎿\s+(You[’']ve hit your .*?limit\b.*)$/;
const RESETS = /· resets (.+?)(?: \(([^)]+)\))?(?: ·|$)/;
const FOOTER = /^⚠\s+(Usage limit reached · limit resets (.+))$/;
const API_429 = /^●\s+(API Error: .*\(429\).*)$/;
/** A row that starts something after the limit: a prompt the user sent, an answer or a tool call. */
const LATER = /^(?:❯\s+\S|●\s+(?!Usage limit reached))/;
/** The input box's edges: what is above them is the transcript. */
const RULE = /^─{10,}$/;
/** A dialog's top edge (the weekly limit asks what to do, in place of the input box). */
const DIALOG = /^▔{10,}$/;

/** "12:28am" or "Dec 6, 3pm" in `zone`, from `now`; null when the words are not a time. */
function resetFrom(words: string, zone: Zone, now: number): number | null {
  const clock = parseClock(words);
  if (clock) return nextClockTime(now, clock, zone);
  return parseDateTime(words, zone, now);
}

export function claudeLimit(rows: readonly string[], now: number, localZone?: string): LimitSeen | null {
  const rules = rows.flatMap((r, i) => (RULE.test(r.trim()) ? [i] : []));
  // The input box is between the last two rules; above it the transcript, below it the status.
  const dialog = rows.findIndex((r) => DIALOG.test(r.trim()));
  const top = Math.min(rules.at(-2) ?? rules.at(-1) ?? rows.length, dialog < 0 ? rows.length : dialog);
  const transcript = rows.slice(0, top);
  const at = Math.max(lastRow(transcript, HIT), lastRow(transcript, API_429));
  if (at >= 0 && !transcript.slice(at + 1).some((r) => LATER.test(bare(r)))) {
    // The line as Claude wrote it: a narrow terminal wraps it over the rows up to the next blank one.
    const line = blockAt(transcript, at).text;
    const api = API_429.exec(line);
    if (api) return { resetAt: null, line: oneLine(api[1]!) };
    const words = HIT.exec(line)![1]!;
    const r = RESETS.exec(words);
    const reset = r ? resetFrom(r[1]!, zoneOrLocal(r[2], localZone), now) : null;
    return reset === null ? { resetAt: null, line: oneLine(words) } : { resetAt: isoTime(reset), resetToMinute: true, line: oneLine(words) };
  }
  // The status below the input box, while Claude waits for the reset (in its own zone: it names none).
  const foot = lastRow(rows, FOOTER, (rules.at(-1) ?? rows.length - 1) + 1);
  if (foot < 0) return null;
  const f = FOOTER.exec(bare(rows[foot]!))!;
  const reset = resetFrom(f[2]!, zoneOrLocal(undefined, localZone), now);
  return reset === null ? { resetAt: null, line: oneLine(f[1]!) } : { resetAt: isoTime(reset), resetToMinute: true, line: oneLine(f[1]!) };
}
