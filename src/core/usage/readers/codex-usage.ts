/**
 * Codex's usage, from its rollout file (`<codex home>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`,
 * docs/usage.md). Its `event_msg` of type `token_count` carries `info.total_token_usage`, the thread's
 * running total, so a message's tokens are the difference from the one before (a token_count repeated
 * with the same total, as Codex writes when only its rate limits changed, adds nothing). A total that
 * went down means the count started over: the new total is all new. A file's first token_count counts
 * only its `last_token_usage` (that response's own), when it has one: a fork's file (`codex fork`) does
 * not copy its source's history, but its running total starts from the source's. `input_tokens` includes the
 * `cached_input_tokens` (and `cache_write_input_tokens`, which 0.171 adds): input here is what remains;
 * `output_tokens` includes the reasoning. The model is the last `turn_context`'s.
 */
import type { TokenCounts, UsageEntry, UsageReader } from '../usage-types.js';
import { count, objectOf, parseObject, textOf, worthParsing, type JsonObject } from './json-fields.js';

interface CodexState {
  model: string;
  /** The last running total seen, in Codex's fields; null before the first. */
  total: Raw | null;
}

interface Raw {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
}

function raw(u: JsonObject): Raw {
  return { input: count(u.input_tokens), cached: count(u.cached_input_tokens), cacheWrite: count(u.cache_write_input_tokens), output: count(u.output_tokens) };
}

function counts(r: Raw): TokenCounts {
  return { input: Math.max(0, r.input - r.cached - r.cacheWrite), output: r.output, cacheWrite: r.cacheWrite, cacheRead: r.cached };
}

function since(now: Raw, before: Raw | null): Raw {
  if (!before) return now;
  const d = { input: now.input - before.input, cached: now.cached - before.cached, cacheWrite: now.cacheWrite - before.cacheWrite, output: now.output - before.output };
  return Object.values(d).some((v) => v < 0) ? now : d;
}

/** The fields a line this reader needs names (json-fields.ts, worthParsing). */
const CODEX_FIELDS = ['token_count', 'turn_context'];

function codexLine(text: string, state: unknown): UsageEntry[] | 'skip' {
  const s = state as CodexState;
  if (!worthParsing(text, CODEX_FIELDS)) return [];
  const o = parseObject(text);
  if (!o) return 'skip';
  const payload = objectOf(o.payload);
  if (o.type === 'turn_context') {
    s.model = textOf(payload?.model) ?? s.model;
    return [];
  }
  if (o.type !== 'event_msg' || payload?.type !== 'token_count') return [];
  const info = objectOf(payload.info);
  const total = objectOf(info?.total_token_usage);
  const last = objectOf(info?.last_token_usage);
  let added: Raw;
  if (total) {
    const now = raw(total);
    added = !s.total && last ? raw(last) : since(now, s.total);
    s.total = now;
  } else if (last) {
    added = raw(last); // a Codex that writes no total: each event is one response's
  } else {
    return []; // rate limits only
  }
  if (added.input + added.output === 0) return [];
  return [{ at: textOf(o.timestamp) ?? null, model: s.model, tokens: counts(added) }];
}

export const codexUsage: UsageReader = { mode: 'lines', initial: (): CodexState => ({ model: '', total: null }), line: codexLine };
