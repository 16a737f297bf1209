/**
 * Gemini CLI's usage, from its saved chat (`<gemini home>/tmp/<project>/chats/session-<time>-<id8>.jsonl`,
 * docs/usage.md). Since 0.61 the chat is JSON Lines that only grow: a first line of metadata, then each
 * message as it is recorded, again (same `id`) each time it changes, and `$set` records (which may set
 * the `messages` whole). A reply (`type: "gemini"`) has `tokens`, the last usageMetadata of its stream:
 * `input` (promptTokenCount, the cached part included), `cached`, `output` (candidates), `thoughts`
 * and `tool` (toolUsePromptTokenCount), each billed apart. Input here is input + tool - cached; output
 * is output + thoughts. The message id is the key: a message recorded again counts once. A fork
 * (`--session-file`) imports its source's messages, times and all, after a first line of its own
 * (`startTime`: the import): a reply from before the file's start was billed to the source.
 * (Before 0.61 the chat was one JSON document rewritten on each turn; Gemini turns it into JSON Lines
 * when it resumes it. This reader reads JSON Lines only.)
 */
import type { UsageEntry, UsageReader } from '../usage-types.js';
import { count, objectOf, parseObject, textOf, timeOf, worthParsing, type JsonObject } from './json-fields.js';

function reply(m: JsonObject): UsageEntry | null {
  const t = objectOf(m.tokens);
  if (m.type !== 'gemini' || !t) return null;
  const cached = count(t.cached);
  const id = textOf(m.id);
  return {
    at: textOf(m.timestamp) ?? null,
    model: textOf(m.model) ?? '',
    tokens: { input: Math.max(0, count(t.input) + count(t.tool) - cached), output: count(t.output) + count(t.thoughts), cacheWrite: 0, cacheRead: cached },
    ...(id ? { key: id } : {}),
  };
}

interface GeminiState {
  /** When the chat was started (its first line's `startTime`, ms), or null before it. */
  start: number | null;
}

/** The fields a line this reader needs names (json-fields.ts, worthParsing). */
const GEMINI_FIELDS = ['tokens', 'startTime'];

function geminiLine(text: string, state: unknown): UsageEntry[] | 'skip' {
  const s = state as GeminiState;
  if (!worthParsing(text, GEMINI_FIELDS)) return [];
  const o = parseObject(text);
  if (!o) return 'skip';
  if (s.start === null && typeof o.sessionId === 'string' && o.startTime !== undefined) s.start = timeOf(o.startTime);
  const set = objectOf(o.$set);
  const messages = set ? (Array.isArray(set.messages) ? set.messages : []) : [o];
  const out: UsageEntry[] = [];
  for (const m of messages) {
    const obj = objectOf(m);
    const e = obj && reply(obj);
    const at = e && timeOf(e.at);
    if (e && !(s.start !== null && at !== null && at < s.start)) out.push(e); // before the start: imported from its source
  }
  return out;
}

export const geminiUsage: UsageReader = { mode: 'lines', initial: (): GeminiState => ({ start: null }), line: geminiLine };
