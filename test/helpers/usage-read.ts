/**
 * A transcript read whole with a kind's usage reader and summed the way the contract says
 * (src/core/usage/usage-types.ts): lines up to the last newline, an entry whose key was seen counts
 * once, a line the reader cannot parse is counted as skipped. The tests' own sum, beside the
 * plumbing's: the readers are tested by what they give, not by how the runner keeps it.
 */
import type { TokenCounts, UsageEntry, UsageReader } from '../../src/core/usage/usage-types.js';

export interface ReadBack {
  tokens: TokenCounts;
  /** The entries counted (a key once). */
  entries: UsageEntry[];
  /** Every entry the reader gave, repeats included. */
  lines: UsageEntry[];
  costUsd: number;
  skipped: number;
}

export const zero = (): TokenCounts => ({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite, cacheRead: a.cacheRead + b.cacheRead };
}

export function readUsage(reader: UsageReader, text: string): ReadBack {
  let skipped = 0;
  const all: UsageEntry[] = [];
  if (reader.mode === 'whole') {
    const r = reader.file(text);
    if (r === 'skip') skipped++;
    else all.push(...r);
  } else {
    const state = reader.initial();
    const lines = text.split('\n');
    lines.pop(); // after the last newline: nothing, or a line still being written
    for (const line of lines) {
      if (!line.trim()) continue;
      const r = reader.line(line, state);
      if (r === 'skip') skipped++;
      else all.push(...r);
    }
  }
  const seen = new Set<string>();
  const entries = all.filter((e) => (e.key === undefined ? true : !seen.has(e.key) && (seen.add(e.key), true)));
  return { tokens: entries.reduce((t, e) => addTokens(t, e.tokens), zero()), entries, lines: all, costUsd: entries.reduce((c, e) => c + (e.costUsd ?? 0), 0), skipped };
}
