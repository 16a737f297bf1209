/**
 * Codex's usage limit on its screen (docs/usage.md, "Usage limits"). A 429 whose body is a
 * `usage_limit_reached` error with `resets_at` ends the turn with an error block, wrapped over rows:
 *
 *   ■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro),
 *   visit https://chatgpt.com/settings/usage to purchase more credits or try again
 *   at Dec 5th, 2026 12:27 AM.
 *
 * The time is Codex's local one: `3:15 PM` on the same day, `Dec 5th, 2026 12:27 AM` on another;
 * with no `resets_at`, `Try again later.`. Only the latest turn counts: an answer or a step of a
 * later turn (`• ...`) after the block makes it history.
 */
import type { LimitSeen } from '../usage-types.js';
import { bare, blockAt, lastRow, oneLine } from './limit-screen.js';
import { nextClockTime, parseClock, parseDateTime, zoneOrLocal } from './limit-time.js';
import { isoTime } from '../../iso-time.js';

const HIT = /^■\s+You[’']ve hit your usage limit\b/;
const AT = /try again at (.+?)\.?$/i;
const LATER = /^•\s/;

export function codexLimit(rows: readonly string[], now: number, localZone?: string): LimitSeen | null {
  const at = lastRow(rows, HIT);
  if (at < 0) return null;
  const { text, end } = blockAt(rows, at);
  if (rows.slice(end).some((r) => LATER.test(bare(r)))) return null;
  const words = text.replace(/^■\s+/, '');
  const when = AT.exec(words)?.[1];
  const zone = zoneOrLocal(undefined, localZone);
  let reset: number | null = null;
  if (when) {
    const clock = parseClock(when);
    reset = clock ? nextClockTime(now, clock, zone) : parseDateTime(when, zone, now);
  }
  return reset === null ? { resetAt: null, line: oneLine(words) } : { resetAt: isoTime(reset), resetToMinute: true, line: oneLine(words) };
}
