/**
 * A time stamp as `Date#toISOString` writes it, computed by hand: the runner stamps its log,
 * host.json and journal with it, and V8's own Date formatting loads ICU's time-zone data, about
 * 1 MiB of every idle runner's memory. Years 0 to 9999 (what toISOString writes without a sign).
 */

const DAY_MS = 86_400_000;
/** Days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar. */
const EPOCH_SHIFT_DAYS = 719_468;
const DAYS_PER_ERA = 146_097; // 400 years

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** `ms` since the epoch as `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC), equal to `new Date(ms).toISOString()`. */
export function isoTime(ms: number): string {
  const t = Math.floor(ms);
  const days = Math.floor(t / DAY_MS);
  let rest = t - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // The civil date of a day number (H. Hinnant's days_from_civil, inverted), with March first in the year.
  const z = days + EPOCH_SHIFT_DAYS;
  const era = Math.floor(z / DAYS_PER_ERA);
  const doe = z - era * DAYS_PER_ERA;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}Z`;
}
