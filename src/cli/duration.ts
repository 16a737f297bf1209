/** Durations as options spell them ("500ms", "30s", "2m"), parsed to milliseconds. */
import { EXIT, UserError } from '../state/errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "500ms", "30s", "2m", "1h"; a bare number is seconds. */
export function parseDuration(text: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new UserError(`${option} must be a duration like 500ms, 30s or 2m, not "${text}"`, EXIT.usage);
  return Math.round(Number(m[1]) * UNITS[m[2] ?? 's']!);
}
