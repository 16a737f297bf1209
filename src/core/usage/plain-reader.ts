/**
 * agent-board's own usage lines: one UsageEntry as JSON per line. No agent writes them; the
 * tests and the bench do (AGENT_BOARD_TEST_USAGE_DIR, src/state/usage/usage-source.ts), to drive
 * the plumbing (the tail, the sums, the runner's keeper, `usage`) without a vendor's format.
 */
import type { UsageEntry, UsageReader } from './usage-types.js';

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

export const PLAIN_USAGE_READER: UsageReader = {
  mode: 'lines',
  initial: () => null,
  line(text) {
    if (text.trim() === '') return [];
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return 'skip';
    }
    const o = v as Partial<UsageEntry> | null;
    const t = o?.tokens;
    if (!o || typeof o.model !== 'string' || !t || !isCount(t.input) || !isCount(t.output)) return 'skip';
    const entry: UsageEntry = {
      at: typeof o.at === 'string' ? o.at : null,
      model: o.model,
      tokens: { input: t.input, output: t.output, cacheWrite: isCount(t.cacheWrite) ? t.cacheWrite : 0, cacheRead: isCount(t.cacheRead) ? t.cacheRead : 0 },
    };
    if (isCount(o.costUsd)) entry.costUsd = o.costUsd;
    if (typeof o.key === 'string') entry.key = o.key;
    return [entry];
  },
};
