/**
 * The reset time an agent names on its screen, as an instant: a clock time ("3pm", "12:28am",
 * "3:15 PM") on a date or the next one to come, in a zone the words name ("(Europe/Paris)",
 * "GMT+1", "UTC", "PST") or else the agent's own; or a wait ("1h59m41s", "2 hours 5 minutes").
 * Pure: `now` is given. Zones are read with Intl, only once a limit line was found: the runner
 * otherwise never loads ICU's time-zone data (src/core/iso-time.ts says why it avoids it).
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/**
 * A clock time up to this long ago is taken as just past (the limit has reset) rather than as the
 * same time tomorrow: the screens show whole minutes (Claude drops the seconds of 12:28:45), and a
 * screen read a little after the reset still names today's time.
 */
const JUST_PAST_MS = 15 * MINUTE_MS;

export interface WallClock {
  hour: number;
  minute: number;
}

/** "3pm", "12:28am", "3:15 PM", "15:30" (24-hour) as an hour and minute, else null. */
export function parseClock(text: string): WallClock | null {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(text.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.toLowerCase().replaceAll('.', '');
  if (half === undefined && m[2] === undefined) return null; // a bare number is no time
  if (minute > 59) return null;
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  } else if (hour > 23) return null;
  return { hour, minute };
}

/** Fixed offsets (minutes east of UTC) of the short names en-US writes for a zone (Gemini's "PST"). */
const ABBREVIATIONS: Readonly<Record<string, number>> = {
  UTC: 0, GMT: 0, Z: 0,
  EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420,
  AKST: -540, AKDT: -480, HST: -600,
};

/** A zone as the words name it: an IANA name (checked by Intl), a fixed offset ("GMT+1", "UTC-05:30", "PST"), or null. */
export type Zone = { iana: string } | { offsetMinutes: number };

export function parseZone(name: string): Zone | null {
  const n = name.trim();
  const fixed = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(n);
  if (fixed) return { offsetMinutes: (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0)) };
  const abbreviation = ABBREVIATIONS[n.toUpperCase()];
  if (abbreviation !== undefined) return { offsetMinutes: abbreviation };
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(n)) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: n });
    return { iana: n };
  } catch {
    return null; // not a zone Intl knows
  }
}

/** Minutes east of UTC of `zone` at the instant `at`. */
function offsetAt(zone: Zone, at: number): number {
  if ('offsetMinutes' in zone) return zone.offsetMinutes;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone.iana, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return Math.round((wall - Math.floor(at / 1000) * 1000) / MINUTE_MS);
}

/** The civil date (year, month 0-11, day) in `zone` at `at`. */
function dateIn(zone: Zone, at: number): { year: number; month: number; day: number } {
  const d = new Date(at + offsetAt(zone, at) * MINUTE_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
}

/** The instant the wall clock in `zone` reads `clock` on the given civil date. */
function instantOf(zone: Zone, date: { year: number; month: number; day: number }, clock: WallClock): number {
  const wall = Date.UTC(date.year, date.month, date.day, clock.hour, clock.minute);
  // The offset at the wall time read as UTC, then at the instant that gives (right across a DST change).
  const first = wall - offsetAt(zone, wall) * MINUTE_MS;
  return wall - offsetAt(zone, first) * MINUTE_MS;
}

/** The zone named, else the agent's own (`localZone`, an IANA name; the runtime's when absent). */
export function zoneOrLocal(named: string | undefined, localZone: string | undefined): Zone {
  const z = named ? parseZone(named) : null;
  if (z) return z;
  return { iana: localZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone };
}

/** The next time `clock` comes in `zone` (or came, within JUST_PAST_MS), from `now`. */
export function nextClockTime(now: number, clock: WallClock, zone: Zone): number {
  const today = dateIn(zone, now);
  for (const shift of [-1, 0, 1, 2]) {
    const d = new Date(Date.UTC(today.year, today.month, today.day + shift));
    const at = instantOf(zone, { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() }, clock);
    if (at > now - JUST_PAST_MS) return at;
  }
  return now + DAY_MS; // not reached: one of the four days is always ahead
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A date and time: "Dec 5th, 2026 12:27 AM" (Codex), "Dec 6, 3pm" or "Dec 6, 2027, 3:30pm" (Claude).
 * Without a year, the next such date from `now`.
 */
export function parseDateTime(text: string, zone: Zone, now: number): number | null {
  const m = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?(?:at\s+)?(.+)$/.exec(text.trim());
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!.toLowerCase());
  const clock = parseClock(m[4]!);
  if (month < 0 || !clock) return null;
  const day = Number(m[2]);
  if (m[3]) return instantOf(zone, { year: Number(m[3]), month, day }, clock);
  const { year } = dateIn(zone, now);
  for (const y of [year, year + 1]) {
    const at = instantOf(zone, { year: y, month, day }, clock);
    if (at > now - JUST_PAST_MS) return at;
  }
  return null;
}

const UNIT_MS: Readonly<Record<string, number>> = { d: DAY_MS, h: HOUR_MS, m: MINUTE_MS, s: 1000, ms: 1 };

/** "1h59m41s", "6m0.5s", "2 hours 5 minutes", "45 min", "1 day" as milliseconds, else null. */
export function parseDuration(text: string): number | null {
  const re = /(\d+(?:\.\d+)?)\s*(milliseconds?|ms|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/gi;
  let total = 0;
  let seen = false;
  let rest = text.trim();
  for (const m of text.matchAll(re)) {
    const unit = m[2]!.toLowerCase();
    const key = unit === 'ms' || unit.startsWith('milli') ? 'ms' : unit[0]!;
    total += Number(m[1]) * UNIT_MS[key]!;
    seen = true;
    rest = rest.replace(m[0], '');
  }
  // Only the amounts and "and" or commas between them: "in 2 hours, or later" is not a duration.
  if (!seen || !/^[\s,]*(?:(?:and)[\s,]*)*$/i.test(rest)) return null;
  return Math.round(total);
}
