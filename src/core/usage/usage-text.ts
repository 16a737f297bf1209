/** Usage in words and short cells, the same in `ls`, the board, `usage` and `explain`. */
import { tokenTotal, type UsageTotals } from './usage-sum.js';
import type { SessionUsage } from './usage-types.js';

/** 950, 1.20k, 12.3k, 120k, 4.56M: a count at a glance, three figures at most. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  const [v, unit] = n < 999_500 ? [n / 1000, 'k'] : [n / 1_000_000, 'M'];
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)}${unit}`;
}

/** 3,627 or 1,100,005: every token, grouped by thousands (`agent-board usage`, where the figures are checked against a bill). */
export function exactCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** $0.42, $12.30, $0.0031: dollars with the digits that matter. */
export function dollars(usd: number): string {
  if (usd > 0 && usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** The cost as a column says it: dollars, with `+?` when some models had no price, or `no price`; nothing spent yet is $0.00. */
export function costText(u: Pick<UsageTotals, 'costUsd' | 'unpriced' | 'messages'>): string {
  if (u.messages === 0) return dollars(0);
  if (u.costUsd === null) return 'no price';
  return u.unpriced.length > 0 ? `${dollars(u.costUsd)}+?` : dollars(u.costUsd);
}

/** One cell: `12.3k $0.42`; `-` before the runner read anything. */
export function usageCell(u: SessionUsage | undefined): string {
  if (!u) return '-';
  return `${shortCount(tokenTotal(u.tokens))} ${costText(u)}`;
}

/** The figures in a line of words, for the preview's title and `explain`. */
export function usageLine(u: UsageTotals): string {
  const t = u.tokens;
  const cost = u.costUsd === null ? 'no price' : dollars(u.costUsd);
  const unpriced = u.costUsd !== null && u.unpriced.length > 0 ? ` (no price for ${u.unpriced.join(', ')})` : '';
  return `${shortCount(tokenTotal(t))} tokens (in ${shortCount(t.input)}, out ${shortCount(t.output)}, cache ${shortCount(t.cacheWrite)} written ${shortCount(t.cacheRead)} read) ${cost}${unpriced}`;
}

/** What `explain` says of a session's usage: the figures, the file they came from, the lines skipped. */
export function usageExplained(u: SessionUsage | undefined): string {
  if (!u) return 'usage: not read (no transcript found for this session, or its kind has no usage reader: docs/usage.md)';
  const skipped = u.skipped === 0 ? 'no line skipped' : `${u.skipped} line${u.skipped === 1 ? '' : 's'} skipped (could not be read)`;
  return `usage: ${usageLine(u)} in ${u.messages} message${u.messages === 1 ? '' : 's'}\n  read from ${u.file} (${skipped}), at ${u.updatedAt}`;
}
