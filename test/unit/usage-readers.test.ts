/**
 * The four usage readers on real transcripts (test/fixtures/usage/: written by the pinned CLIs in the
 * lane, three turns with a restart between the second and third, against the mocks, which served
 * these tokens: answers 1, 2 and 3 of test/fixtures/mocks/common.mjs usageOf; then a fork of it
 * took one turn, answer 4, in the `-fork` files), and on the lines a transcript can hold that those
 * turns did not write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE_READERS } from '../../src/core/usage/readers/index.js';
import type { UsageReader } from '../../src/core/usage/usage-types.js';
import { ROOT } from '../helpers/home.js';
import { readUsage } from '../helpers/usage-read.js';

const fixture = (name: string) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'usage', name), 'utf8');
/** What the mocks served for answers 1 to 3 (fresh input, output, cache writes, cache reads); OpenAI and Gemini bill no cache writes. */
const SERVED = { input: 1108 + 1209 + 1310, output: 56 + 69 + 82, cacheWrite: 338 + 375 + 412, cacheRead: 2220 + 2431 + 2642 };
const NO_WRITES = { ...SERVED, cacheWrite: 0 };
/** Answer 4, the fork's own turn. */
const FORK_TURN = { input: 1411, output: 95, cacheWrite: 449, cacheRead: 2853 };

/** One line through a lines reader, with a fresh state unless one is given. */
function one(reader: UsageReader, line: string, state: unknown = reader.mode === 'lines' ? reader.initial() : null) {
  if (reader.mode !== 'lines') throw new Error('a lines reader');
  return reader.line(line, state);
}

describe('the readers, on the real CLIs\' transcripts', () => {
  it('claude: three answers, the two-block one written twice and counted once, every field to the token', () => {
    const r = readUsage(USAGE_READERS.claude!, fixture('claude-2.1.332.jsonl'));
    expect(r.tokens).toEqual(SERVED);
    expect(r.lines).toHaveLength(4);
    expect(r.entries).toHaveLength(3);
    expect(r.skipped).toBe(0);
    expect(new Set(r.entries.map((e) => e.model))).toEqual(new Set(['claude-opus-5-5']));
    expect(r.entries[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('codex: the running totals become each answer\'s tokens, the cached part apart from the input', () => {
    const r = readUsage(USAGE_READERS.codex!, fixture('codex-0.171.0.jsonl'));
    expect(r.tokens).toEqual(NO_WRITES);
    expect(r.entries.map((e) => e.tokens.output)).toEqual([56, 69, 82]);
    expect(r.entries.map((e) => e.model)).toEqual(['mock-model', 'mock-model', 'mock-model']);
    expect(r.skipped).toBe(0);
  });

  it('gemini: the replies\' tokens, the cached part apart from the input, the thoughts in the output', () => {
    const r = readUsage(USAGE_READERS.gemini!, fixture('gemini-0.61.0.jsonl'));
    expect(r.tokens).toEqual(NO_WRITES);
    expect(r.entries).toHaveLength(3);
    expect(r.entries[0]!.model).toBe('gemini-3.8-flash');
    expect(r.skipped).toBe(0);
  });

  it('pi: its usage as it splits it, and the cost it recorded from its price table', () => {
    const r = readUsage(USAGE_READERS.pi!, fixture('pi-0.73.1.jsonl'));
    expect(r.tokens).toEqual(NO_WRITES);
    expect(r.entries.map((e) => e.costUsd)).toEqual([0.00483, 0.0053913, 0.005952600000000001]);
    expect(r.entries[0]!.model).toBe('mock-model');
  });

  it("a fork: only its own turn, not its source's messages it starts with (copied, imported, or its running total)", () => {
    for (const [kind, name, turn] of [
      ['claude', 'claude-2.1.332-fork.jsonl', FORK_TURN],
      ['codex', 'codex-0.171.0-fork.jsonl', { ...FORK_TURN, cacheWrite: 0 }],
      ['gemini', 'gemini-0.61.0-fork.jsonl', { ...FORK_TURN, cacheWrite: 0 }],
      ['pi', 'pi-0.73.1-fork.jsonl', { ...FORK_TURN, cacheWrite: 0 }],
    ] as const) {
      const r = readUsage(USAGE_READERS[kind]!, fixture(name));
      expect(r.tokens, kind).toEqual(turn);
      expect(r.entries, kind).toHaveLength(1);
    }
  });

  it('a line cut short (the CLI still writing it, or a broken file) is skipped, the rest still read', () => {
    for (const [kind, name] of [['claude', 'claude-2.1.332.jsonl'], ['codex', 'codex-0.171.0.jsonl'], ['gemini', 'gemini-0.61.0.jsonl'], ['pi', 'pi-0.73.1.jsonl']] as const) {
      const lines = fixture(name).split('\n');
      const cut = lines.map((l, i) => (i === 3 ? l.slice(0, Math.floor(l.length / 2)) : l)).join('\n');
      const r = readUsage(USAGE_READERS[kind]!, cut);
      expect(r.skipped, kind).toBe(1);
      expect(one(USAGE_READERS[kind]!, '{"type":'), kind).toBe('skip');
      expect(one(USAGE_READERS[kind]!, '[1,2]'), kind).toBe('skip');
    }
  });
});

describe('lines the lane\'s turns did not write', () => {
  const claudeAssistant = (o: { model?: string; requestId?: string }) =>
    JSON.stringify({ type: 'assistant', timestamp: '2026-01-02T03:04:05.000Z', ...(o.requestId ? { requestId: o.requestId } : {}), message: { id: 'msg_a', model: o.model ?? 'claude-x', usage: { input_tokens: 3, output_tokens: 5, cache_creation_input_tokens: 7, cache_read_input_tokens: 11 } } });

  it('claude: the older requestId keys a message as requestRef does; its <synthetic> error replies were never billed', () => {
    expect(one(USAGE_READERS.claude!, claudeAssistant({ requestId: 'req_1' }))).toEqual([
      { at: '2026-01-02T03:04:05.000Z', model: 'claude-x', tokens: { input: 3, output: 5, cacheWrite: 7, cacheRead: 11 }, key: 'msg_a:req_1' },
    ]);
    expect(one(USAGE_READERS.claude!, claudeAssistant({ model: '<synthetic>' }))).toEqual([]);
    expect(one(USAGE_READERS.claude!, JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } }))).toEqual([]);
  });

  const tokenCount = (total: Record<string, number> | null, last?: Record<string, number>) =>
    JSON.stringify({ timestamp: 't', type: 'event_msg', payload: { type: 'token_count', info: total || last ? { ...(total ? { total_token_usage: total } : {}), ...(last ? { last_token_usage: last } : {}) } : null } });
  const usage = (input: number, cached: number, output: number) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 1, total_tokens: input + output });

  it('codex: a total repeated adds nothing, a total that went down starts over, rate limits alone are no message', () => {
    const r = USAGE_READERS.codex!;
    if (r.mode !== 'lines') throw new Error('lines');
    const s = r.initial();
    expect(r.line(JSON.stringify({ type: 'turn_context', payload: { model: 'gpt-9' } }), s)).toEqual([]);
    expect(r.line(tokenCount(usage(100, 40, 10)), s)).toEqual([{ at: 't', model: 'gpt-9', tokens: { input: 60, output: 10, cacheWrite: 0, cacheRead: 40 } }]);
    expect(r.line(tokenCount(usage(100, 40, 10)), s)).toEqual([]);
    expect(r.line(tokenCount(null), s)).toEqual([]);
    expect(r.line(tokenCount(usage(250, 90, 30)), s)).toEqual([{ at: 't', model: 'gpt-9', tokens: { input: 100, output: 20, cacheWrite: 0, cacheRead: 50 } }]);
    expect(r.line(tokenCount(usage(20, 5, 3)), s)).toEqual([{ at: 't', model: 'gpt-9', tokens: { input: 15, output: 3, cacheWrite: 0, cacheRead: 5 } }]);
    // A Codex that writes only each response's usage.
    expect(one(r, tokenCount(null, usage(9, 4, 2)))).toEqual([{ at: 't', model: '', tokens: { input: 5, output: 2, cacheWrite: 0, cacheRead: 4 } }]);
  });

  it('gemini: a reply in a $set of the messages counts, a reply recorded again counts once, tool-use prompt tokens are input', () => {
    const reply = { id: 'g1', timestamp: 't', type: 'gemini', model: 'gemini-x', content: 'hi', tokens: { input: 100, output: 7, cached: 30, thoughts: 2, tool: 5, total: 114 } };
    const entry = { at: 't', model: 'gemini-x', tokens: { input: 75, output: 9, cacheWrite: 0, cacheRead: 30 }, key: 'g1' };
    expect(one(USAGE_READERS.gemini!, JSON.stringify({ $set: { messages: [{ id: 'u1', type: 'user', content: [] }, reply] } }))).toEqual([entry]);
    expect(one(USAGE_READERS.gemini!, JSON.stringify({ $set: { lastUpdated: 't' } }))).toEqual([]);
    expect(one(USAGE_READERS.gemini!, JSON.stringify({ ...reply, tokens: undefined }))).toEqual([]);
    const text = [JSON.stringify(reply), JSON.stringify({ ...reply, toolCalls: [] }), ''].join('\n');
    expect(readUsage(USAGE_READERS.gemini!, text).entries).toEqual([entry]);
  });

  it('pi: a cost of 0 for tokens that are not (a model pi has no price for) is left for us to price', () => {
    const line = JSON.stringify({ type: 'message', id: 'e1', timestamp: 't', message: { role: 'assistant', model: 'm', usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: { total: 0 } } } });
    expect(one(USAGE_READERS.pi!, line)).toEqual([{ at: 't', model: 'm', tokens: { input: 1, output: 2, cacheWrite: 4, cacheRead: 3 }, key: 'e1' }]);
  });

  it('a whole line that names none of the fields a reader needs is passed over unparsed; one cut short is still skipped', () => {
    const prompt = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(1000) } });
    for (const kind of ['claude', 'codex', 'gemini', 'pi']) {
      expect(one(USAGE_READERS[kind]!, prompt), kind).toEqual([]);
      expect(one(USAGE_READERS[kind]!, prompt.slice(0, 500)), kind).toBe('skip');
    }
  });

  it('every kind with a transcript has a reader; the others none', () => {
    expect(Object.keys(USAGE_READERS).sort()).toEqual(['claude', 'codex', 'gemini', 'pi']);
  });
});
