/**
 * Gemini CLI's usage limit on its screen (docs/usage.md, "Usage limits"). A 429 RESOURCE_EXHAUSTED
 * whose RetryInfo asks to wait more than 300 s (or a cloudcode QUOTA_EXHAUSTED) is a "terminal"
 * quota error: Gemini stops retrying and asks, in a box:
 *
 *   │ Usage limit reached for gemini-3.8-flash.     │
 *   │ Access resets at 12:27 AM GMT+1.              │
 *   │ /stats model for usage details                │
 *   │ ● 1. Keep trying                              │
 *   │   2. Stop                                     │
 *
 * (the reset in Gemini's local zone, named as en-US writes it short: `GMT+1`, `UTC`, `PST`). A daily
 * quota (a QuotaFailure whose quotaId says PerDay) is the same dialog with no `Access resets` line
 * (seen); its error's own words, `You have exhausted your daily quota on this model.`, are read too
 * (from Gemini's code). An answer after it (`✦ ...`) makes it history.
 */
import type { LimitSeen } from '../usage-types.js';
import { bare, lastRow, oneLine } from './limit-screen.js';
import { nextClockTime, parseClock, zoneOrLocal } from './limit-time.js';
import { isoTime } from '../../iso-time.js';

const HIT = /^(?:[ℹ✕!]\s+)?(?:Usage limit reached for \S.*|You have exhausted your daily quota on this model\..*)$/;
const RESETS = /^Access resets at (\d{1,2}(?::\d{2})?\s*[AP]M)(?:\s+([A-Za-z][\w/+:-]*))?\.?$/i;
const LATER = /^✦\s/;

export function geminiLimit(rows: readonly string[], now: number, localZone?: string): LimitSeen | null {
  const at = lastRow(rows, HIT);
  if (at < 0) return null;
  if (rows.slice(at + 1).some((r) => LATER.test(bare(r)))) return null;
  const words = [bare(rows[at]!)];
  let reset: number | null = null;
  const next = rows[at + 1] === undefined ? '' : bare(rows[at + 1]!);
  const r = RESETS.exec(next);
  if (r) {
    words.push(next);
    const clock = parseClock(r[1]!);
    if (clock) reset = nextClockTime(now, clock, zoneOrLocal(r[2], localZone));
  }
  const line = oneLine(words.join(' '));
  return reset === null ? { resetAt: null, line } : { resetAt: isoTime(reset), resetToMinute: true, line };
}
