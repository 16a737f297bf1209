/** `usage --since <when>`: a date, a date and time, or a span back from now. */

const SPAN_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `2026-12-01` (that day's start, UTC, as `--by day` counts days), `2026-12-01T15:00` (UTC unless
 * it names a zone), `today` (UTC), or a span back from now: `90m`, `12h`, `7d`, `2w`. Null: not one of them.
 */
export function parseSince(text: string, nowMs: number): number | null {
  const t = text.trim();
  if (t === 'today') return Math.floor(nowMs / SPAN_MS.d!) * SPAN_MS.d!;
  const span = /^(\d+)([mhdw])$/.exec(t);
  if (span) return nowMs - Number(span[1]) * SPAN_MS[span[2]!]!;
  let ms = NaN;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) ms = Date.parse(`${t}T00:00:00Z`);
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) ms = Date.parse(`${t}Z`);
  else if (/^\d{4}-\d{2}-\d{2}T/.test(t)) ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}
