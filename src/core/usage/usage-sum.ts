/**
 * Messages summed into a session's figures (SessionUsage without where they came from), and
 * grouped for `agent-board usage --by`. A message with a `key` counts once: written again (streamed,
 * then final) its last version replaces the first.
 */
import { costOf, priceOf, type PriceTable } from './prices.js';
import type { SessionUsage, TokenCounts, UsageEntry } from './usage-types.js';

/** The figures of a sum: SessionUsage but the file, the skipped lines and the time. */
export type UsageTotals = Omit<SessionUsage, 'file' | 'skipped' | 'updatedAt'>;

export const zeroTokens = (): TokenCounts => ({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });

/** All four counts together, as budgets and the columns count tokens. */
export const tokenTotal = (t: TokenCounts): number => t.input + t.output + t.cacheWrite + t.cacheRead;

function addTokens(into: TokenCounts, t: TokenCounts, sign: 1 | -1): void {
  into.input += sign * t.input;
  into.output += sign * t.output;
  into.cacheWrite += sign * t.cacheWrite;
  into.cacheRead += sign * t.cacheRead;
}

/**
 * A running sum, added to as a transcript grows (the runner's keeper, the `usage` command): each
 * entry costs O(1), so a long transcript read a line at a time never sums what it summed before.
 */
export class UsageSum {
  private readonly tokens = zeroTokens();
  private cost = 0;
  private priced = 0;
  private count = 0;
  private readonly models: string[] = [];
  /** Model -> how many counted messages of it had no price (a replaced message can take its model's last one away). */
  private readonly unpricedCount = new Map<string, number>();
  private readonly byKey = new Map<string, UsageEntry>();

  constructor(private readonly prices: PriceTable) {}

  add(e: UsageEntry): void {
    if (e.key !== undefined) {
      const before = this.byKey.get(e.key);
      this.byKey.set(e.key, e);
      if (before) this.apply(before, -1);
    }
    this.apply(e, 1);
  }

  addAll(entries: readonly UsageEntry[]): void {
    for (const e of entries) this.add(e);
  }

  private apply(e: UsageEntry, sign: 1 | -1): void {
    addTokens(this.tokens, e.tokens, sign);
    this.count += sign;
    if (sign === 1 && e.model && !this.models.includes(e.model)) this.models.push(e.model);
    const price = e.costUsd === undefined ? priceOf(e.model, this.prices) : null;
    const cost = e.costUsd ?? (price ? costOf(e.tokens, price) : null);
    if (cost !== null) {
      this.cost += sign * cost;
      this.priced += sign;
    } else {
      this.unpricedCount.set(e.model, (this.unpricedCount.get(e.model) ?? 0) + sign);
    }
  }

  totals(): UsageTotals {
    return {
      tokens: { ...this.tokens },
      // Rounded to a hundredth of a cent: sums of floats drift in the last digits.
      costUsd: this.priced > 0 ? Math.round(this.cost * 1e6) / 1e6 : null,
      unpriced: [...this.unpricedCount].filter(([, n]) => n > 0).map(([m]) => m || '(no model named)'),
      models: [...this.models],
      messages: this.count,
    };
  }
}

/** The entries' sum. */
export function sumUsage(entries: readonly UsageEntry[], prices: PriceTable): UsageTotals {
  const s = new UsageSum(prices);
  s.addAll(entries);
  return s.totals();
}

/** What `usage --by` groups by. */
export type UsageGroupBy = 'session' | 'room' | 'kind' | 'day';
export const USAGE_GROUPS: readonly UsageGroupBy[] = ['session', 'room', 'kind', 'day'];

/** A session's entries with what they are grouped by. */
export interface SessionEntries {
  session: string;
  room: string;
  kind: string;
  entries: readonly UsageEntry[];
}

/** The day an entry is counted on: its date in UTC, or `unknown` for a record with no time. */
export function dayOf(e: UsageEntry): string {
  return e.at && /^\d{4}-\d{2}-\d{2}/.test(e.at) ? e.at.slice(0, 10) : 'unknown';
}

/** Entries at or after `sinceMs` (an entry with no time is kept only when there is no bound). */
export function entriesSince(entries: readonly UsageEntry[], sinceMs: number | null): UsageEntry[] {
  if (sinceMs === null) return [...entries];
  return entries.filter((e) => e.at !== null && Date.parse(e.at) >= sinceMs);
}

/**
 * Sums by group, in the order the groups were first met (days sorted). Keys stay per session:
 * two sessions resumed from one conversation count its messages once in a group they share.
 */
export function groupUsage(sessions: readonly SessionEntries[], by: UsageGroupBy, prices: PriceTable): Array<{ group: string; totals: UsageTotals }> {
  const sums = new Map<string, UsageSum>();
  const sumFor = (g: string) => {
    let s = sums.get(g);
    if (!s) sums.set(g, (s = new UsageSum(prices)));
    return s;
  };
  for (const s of sessions) {
    for (const e of s.entries) {
      const g = by === 'day' ? dayOf(e) : by === 'room' ? s.room : by === 'kind' ? s.kind : s.session;
      sumFor(g).add(e);
    }
  }
  const out = [...sums].map(([group, s]) => ({ group, totals: s.totals() }));
  if (by === 'day') out.sort((a, b) => a.group.localeCompare(b.group));
  return out;
}

/** Several sums as one (the TOTAL row): tokens and costs added, models and unpriced models joined. */
export function mergeTotals(list: readonly UsageTotals[]): UsageTotals {
  const tokens = zeroTokens();
  let cost: number | null = null;
  const models: string[] = [];
  const unpriced: string[] = [];
  let messages = 0;
  for (const t of list) {
    addTokens(tokens, t.tokens, 1);
    if (t.costUsd !== null) cost = (cost ?? 0) + t.costUsd;
    for (const m of t.models) if (!models.includes(m)) models.push(m);
    for (const m of t.unpriced) if (!unpriced.includes(m)) unpriced.push(m);
    messages += t.messages;
  }
  return { tokens, costUsd: cost === null ? null : Math.round(cost * 1e6) / 1e6, unpriced, models, messages };
}
