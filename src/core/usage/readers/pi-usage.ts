/**
 * pi's usage, from its session file (`<pi agent dir>/sessions/<folder>/<time>_<id>.jsonl`; agent-board
 * gives each session its own folder, docs/usage.md). Each `message` entry of role `assistant` has
 * `usage`: `input` (fresh), `output`, `cacheRead`, `cacheWrite`, already split as we count them, and
 * `cost` (US dollars, priced by pi from its model table). A cost of 0 for tokens that are not is pi
 * not knowing the model's price (a custom model without one), not a free answer: then we price it.
 * A fork (`--fork`) copies its source's entries, times and all, after a header of its own (`type:
 * "session"`, its time, `parentSession`): an answer from before the file's own start was billed to the
 * source. The entry's id is the key.
 */
import type { UsageEntry, UsageReader } from '../usage-types.js';
import { count, objectOf, parseObject, textOf, timeOf, worthParsing } from './json-fields.js';

interface PiState {
  /** When the file was started (its header's time, ms), or null before the header. */
  start: number | null;
}

/** The fields a line this reader needs names (json-fields.ts, worthParsing). */
const PI_FIELDS = ['usage', 'session'];

function piLine(text: string, state: unknown): UsageEntry[] | 'skip' {
  const s = state as PiState;
  if (!worthParsing(text, PI_FIELDS)) return [];
  const o = parseObject(text);
  if (!o) return 'skip';
  if (o.type === 'session') {
    s.start = timeOf(o.timestamp);
    return [];
  }
  const message = objectOf(o.message);
  const usage = objectOf(message?.usage);
  if (o.type !== 'message' || message?.role !== 'assistant' || !usage) return [];
  const at = timeOf(o.timestamp);
  if (s.start !== null && at !== null && at < s.start) return []; // copied from the session it was forked from
  const cost = count(objectOf(usage.cost)?.total);
  const id = textOf(o.id);
  return [
    {
      at: textOf(o.timestamp) ?? null,
      model: textOf(message.model) ?? '',
      tokens: { input: count(usage.input), output: count(usage.output), cacheWrite: count(usage.cacheWrite), cacheRead: count(usage.cacheRead) },
      ...(cost > 0 ? { costUsd: cost } : {}),
      ...(id ? { key: id } : {}),
    },
  ];
}

export const piUsage: UsageReader = { mode: 'lines', initial: (): PiState => ({ start: null }), line: piLine };
