/**
 * Claude Code's usage, from its conversation JSONL (`<config>/projects/<munged cwd>/<session id>.jsonl`,
 * docs/usage.md). Each assistant line carries the API's `message.usage`: `input_tokens` (fresh input),
 * `cache_creation_input_tokens`, `cache_read_input_tokens`, `output_tokens`, final (message_delta's) counts.
 * A message of several content blocks is written once per block, each line with the whole message's
 * usage, so every line has a key (the message id and its request: `requestId`, which Claude Code 2.1.332
 * writes as `requestRef`) and a key counts once. Its `<synthetic>` lines (errors it made up) were never billed.
 * A fork (`--fork-session`) starts its file with a copy of its source's messages, each marked with the
 * session that made the request (`requestSessionId`): those were billed to the source, not to the fork.
 */
import type { UsageEntry, UsageReader } from '../usage-types.js';
import { count, objectOf, parseObject, textOf, worthParsing } from './json-fields.js';

/** The model Claude Code names a message it wrote itself (an API error shown as a reply). */
const SYNTHETIC_MODEL = '<synthetic>';

/** The fields a line this reader needs names (json-fields.ts, worthParsing). */
const CLAUDE_FIELDS = ['usage'];

function claudeLine(text: string): UsageEntry[] | 'skip' {
  if (!worthParsing(text, CLAUDE_FIELDS)) return [];
  const o = parseObject(text);
  if (!o) return 'skip';
  if (o.type !== 'assistant') return [];
  const madeBy = textOf(o.requestSessionId);
  if (madeBy && madeBy !== textOf(o.sessionId)) return [];
  const message = objectOf(o.message);
  const usage = objectOf(message?.usage);
  if (!message || !usage) return [];
  const model = textOf(message.model) ?? '';
  if (model === SYNTHETIC_MODEL) return [];
  const id = textOf(message.id);
  const request = textOf(o.requestId) ?? textOf(o.requestRef);
  return [
    {
      at: textOf(o.timestamp) ?? null,
      model,
      tokens: {
        input: count(usage.input_tokens),
        output: count(usage.output_tokens),
        cacheWrite: count(usage.cache_creation_input_tokens),
        cacheRead: count(usage.cache_read_input_tokens),
      },
      ...(id ? { key: `${id}:${request ?? ''}` } : {}),
    },
  ];
}

export const claudeUsage: UsageReader = { mode: 'lines', initial: () => null, line: claudeLine };
