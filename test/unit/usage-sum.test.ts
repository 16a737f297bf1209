import { describe, expect, it } from 'vitest';
import { parseUserConfig } from '../../src/core/user-config.js';
import { costOf, priceName, priceOf, priceTable } from '../../src/core/usage/prices.js';
import { parseSince } from '../../src/core/usage/since.js';
import { SHIPPED_PRICES } from '../../src/core/usage/price-list.js';
import { entriesSince, groupUsage, sumUsage, UsageSum } from '../../src/core/usage/usage-sum.js';
import { costText, shortCount, usageCell } from '../../src/core/usage/usage-text.js';
import type { UsageEntry } from '../../src/core/usage/usage-types.js';

const entry = (model: string, input: number, output: number, more: Partial<UsageEntry> = {}): UsageEntry => ({
  at: '2026-12-01T10:00:00.000Z',
  model,
  tokens: { input, output, cacheWrite: 0, cacheRead: 0 },
  ...more,
});

describe('prices', () => {
  it('prices a dated model id by its listed name, never by a neighbour', () => {
    const t = priceTable();
    expect(priceName('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(priceOf('claude-sonnet-4-5-20250929', t)).toEqual({ input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 });
    expect(priceOf('anthropic/claude-opus-4-5', t)?.input).toBe(5);
    expect(priceOf('gpt-5-2025-08-07', t)?.output).toBe(10);
    // A model that is not listed has no price, even when a listed one is its prefix.
    expect(priceOf('gpt-5-turbo-x', t)).toBeNull();
    expect(priceOf('claude-sonnet-9', t)).toBeNull();
  });

  it('costs every kind of token at its own rate', () => {
    const cost = costOf({ input: 1_000_000, output: 1_000_000, cacheWrite: 1_000_000, cacheRead: 1_000_000 }, { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 });
    expect(cost).toBeCloseTo(22.05, 10);
  });

  it('config.json prices override the shipped ones and add models; a bad one is a line', () => {
    const { config, errors } = parseUserConfig(
      JSON.stringify({ prices: { 'claude-sonnet-4-5': { input: 1, output: 2, cacheWrite: 3, cacheRead: 4 }, 'my-model': { input: 1, output: 2 }, bad: { input: 'x' } } }),
      'c.json',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/c\.json: the price of "bad"/);
    const t = priceTable(config.prices);
    expect(priceOf('claude-sonnet-4-5-20250929', t)).toEqual({ input: 1, output: 2, cacheWrite: 3, cacheRead: 4 });
    // No cache split given: cache tokens cost as input.
    expect(priceOf('my-model', t)).toEqual({ input: 1, output: 2, cacheWrite: 1, cacheRead: 1 });
    expect(priceOf('claude-haiku-4-5', t)?.input).toBe(1);
  });
});

describe('usage sums', () => {
  it('adds tokens and cost; an unpriced model shows its tokens and no price', () => {
    const t = priceTable();
    const u = sumUsage([entry('claude-sonnet-4-5', 1_000_000, 100_000), entry('mystery-1', 500, 50)], t);
    expect(u.tokens).toEqual({ input: 1_000_500, output: 100_050, cacheWrite: 0, cacheRead: 0 });
    expect(u.costUsd).toBeCloseTo(4.5, 6);
    expect(u.unpriced).toEqual(['mystery-1']);
    expect(u.models).toEqual(['claude-sonnet-4-5', 'mystery-1']);
    expect(u.messages).toBe(2);
    expect(costText(u)).toBe('$4.50+?');
    const none = sumUsage([entry('mystery-1', 500, 50)], t);
    expect(none.costUsd).toBeNull();
    expect(costText(none)).toBe('no price');
  });

  it("uses the cost the agent recorded (pi's) over any price", () => {
    const u = sumUsage([entry('claude-sonnet-4-5', 1000, 1000, { costUsd: 0.5 }), entry('no-such-model', 1, 1, { costUsd: 0.25 })], priceTable());
    expect(u.costUsd).toBe(0.75);
    expect(u.unpriced).toEqual([]);
  });

  it('a message written twice under one key counts once, as its last version', () => {
    const s = new UsageSum(priceTable());
    s.add(entry('claude-sonnet-4-5', 10, 1, { key: 'm1' }));
    s.add(entry('claude-sonnet-4-5', 10, 200, { key: 'm1' }));
    s.add(entry('claude-sonnet-4-5', 5, 5, { key: 'm2' }));
    expect(s.totals().tokens.output).toBe(205);
    expect(s.totals().messages).toBe(2);
    // An unpriced message replaced by a priced one leaves no unpriced model behind.
    s.add(entry('mystery', 1, 1, { key: 'm3' }));
    expect(s.totals().unpriced).toEqual(['mystery']);
    s.add(entry('claude-sonnet-4-5', 1, 1, { key: 'm3' }));
    expect(s.totals().unpriced).toEqual([]);
  });

  it('groups by session, room, kind and day, and cuts at --since', () => {
    const t = priceTable();
    const a = { session: 'a', room: 'r1', kind: 'claude', entries: [entry('claude-sonnet-4-5', 100, 10, { at: '2026-12-01T23:00:00Z' }), entry('claude-sonnet-4-5', 200, 20, { at: '2026-12-02T01:00:00Z' })] };
    const b = { session: 'b', room: 'r1', kind: 'codex', entries: [entry('gpt-5', 1000, 100, { at: '2026-12-02T05:00:00Z' }), entry('gpt-5', 1, 1, { at: null })] };
    expect(groupUsage([a, b], 'room', t).map((g) => [g.group, g.totals.tokens.input])).toEqual([['r1', 1301]]);
    expect(groupUsage([a, b], 'kind', t).map((g) => [g.group, g.totals.messages])).toEqual([['claude', 2], ['codex', 2]]);
    expect(groupUsage([a, b], 'day', t).map((g) => [g.group, g.totals.tokens.input])).toEqual([
      ['2026-12-01', 100],
      ['2026-12-02', 1200],
      ['unknown', 1],
    ]);
    expect(entriesSince(a.entries, Date.parse('2026-12-02T00:00:00Z')).map((e) => e.tokens.input)).toEqual([200]);
    expect(entriesSince(b.entries, Date.parse('2026-12-02T00:00:00Z'))).toHaveLength(1);
  });

  it('a cell says tokens and cost, or a dash before anything was read', () => {
    expect(usageCell(undefined)).toBe('-');
    // A transcript with no message yet: nothing spent, not "no price".
    expect(usageCell({ ...sumUsage([], priceTable()), file: '/x', skipped: 0, updatedAt: '' })).toBe('0 $0.00');
    const u = { ...sumUsage([entry('claude-sonnet-4-5', 12_000, 345)], priceTable()), file: '/x', skipped: 0, updatedAt: '' };
    expect(usageCell(u)).toBe('12.3k $0.04');
  });
});

describe('--since', () => {
  const now = Date.parse('2026-12-04T15:30:00Z');
  it('takes a date, a time (UTC unless zoned), today, and a span back', () => {
    expect(parseSince('2026-12-01', now)).toBe(Date.parse('2026-12-01T00:00:00Z'));
    expect(parseSince('2026-12-01T15:00', now)).toBe(Date.parse('2026-12-01T15:00:00Z'));
    expect(parseSince('2026-12-01T15:00+02:00', now)).toBe(Date.parse('2026-12-01T13:00:00Z'));
    expect(parseSince('today', now)).toBe(Date.parse('2026-12-04T00:00:00Z'));
    expect(parseSince('90m', now)).toBe(now - 90 * 60_000);
    expect(parseSince('2w', now)).toBe(now - 14 * 86_400_000);
    for (const bad of ['yesterday-ish', '12', '3x', '2026-13-45']) expect(parseSince(bad, now)).toBeNull();
  });
});

describe('the shipped prices', () => {
  it('are all numbers, and a cache read never costs more than input', () => {
    expect(Object.keys(SHIPPED_PRICES).length).toBeGreaterThan(10);
    for (const [model, p] of Object.entries(SHIPPED_PRICES)) {
      for (const v of [p.input, p.output, p.cacheWrite, p.cacheRead]) expect(Number.isFinite(v) && v >= 0, model).toBe(true);
      expect(p.cacheRead <= p.input, model).toBe(true);
      expect(p.output >= p.input, model).toBe(true);
    }
  });
});

describe('counts at a glance', () => {
  it('three figures at most', () => {
    expect([950, 1200, 12_345, 120_000, 999_999, 2_500_000, 45_600_000, 123_000_000].map(shortCount)).toEqual(['950', '1.20k', '12.3k', '120k', '1.00M', '2.50M', '45.6M', '123M']);
  });
});
