/**
 * pi's usage, from its session file (`<pi agent dir>/sessions/<folder>/<time>_<id>.jsonl`; agent-board
 * gives each session its own folder, docs/usage.md). Each `message` entry of role `assistant` has
 * `usage`: `input` (fresh), `output`, `cacheRead`, `cacheWrite`, already split as we count them, and
 * `cost` (US dollars, priced by pi from its model table). A cost of 0 for tokens that are not is pi
 * not knowing the model's price (a custom model without one), not a free answer: then we price it.
 * The entry's id is the key (a forked file keeps its entries' ids).
 */
import type { UsageEntry, UsageReader } from '../usage-types.js';
import { count, objectOf, parseObject, textOf } from './json-fields.js';

function piLine(text: string): UsageEntry[] | 'skip' {
  const o = parseObject(text);
  if (!o) return 'skip';
  const message = objectOf(o.message);
  const usage = objectOf(message?.usage);
  if (o.type !== 'message' || message?.role !== 'assistant' || !usage) return [];
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

export const piUsage: UsageReader = { mode: 'lines', initial: () => null, line: piLine };
