/**
 * The user's local day, for the day's budget (src/core/usage/budget.ts): its date, and how long
 * until the next one begins. Local time reads the time zone, which core may not (it has no clock).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `ms` since the epoch as the local date, YYYY-MM-DD. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Milliseconds from `ms` to the next local midnight (a day of 23 or 25 hours included). */
export function msToNextLocalDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() - ms;
}
