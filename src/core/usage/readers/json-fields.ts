/**
 * What the usage readers share: a transcript line parsed as one JSON object (or not: the reader
 * then says 'skip'), and fields read without trusting their types (a CLI's format changes between
 * versions; a field of another type reads as absent, never as a wrong number).
 */

export type JsonObject = Record<string, unknown>;

/**
 * Whether a line is worth parsing: it names one of `fields` (as `"field"`), or it does not look
 * whole (a line cut short must be parsed to be counted as skipped). Most of a transcript's bytes
 * are lines no reader needs (prompts, tool output, attachments); a 100 MiB transcript is summed
 * in well under a second only if those are passed over unparsed.
 */
export function worthParsing(text: string, fields: readonly string[]): boolean {
  const t = text.trimEnd();
  if (!t.startsWith('{') || !t.endsWith('}')) return true;
  return fields.some((f) => text.includes(`"${f}"`));
}

/** The line as a JSON object, or null when it is not one (cut short, not JSON, an array). */
export function parseObject(text: string): JsonObject | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null; // the caller counts it as skipped
  }
  return objectOf(v);
}

export function objectOf(v: unknown): JsonObject | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
}

/** A count of tokens: a finite number not below 0, else 0. */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function textOf(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** An ISO time as milliseconds, or null when it is not one. */
export function timeOf(v: unknown): number | null {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(ms) ? null : ms;
}
