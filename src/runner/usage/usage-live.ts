/** The usage keeper wired to a session (src/runner/main.ts): where its transcript is, its prices, its first read. */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { priceTable } from '../../core/usage/prices.js';
import type { SessionUsage } from '../../core/usage/usage-types.js';
import { readUserConfig } from '../../state/config.js';
import { findUsageSource } from '../../state/usage/usage-source.js';
import { UsageKeeper } from './usage-keeper.js';

export interface UsageLiveDeps {
  kind: string;
  /** The session's record now: its conversation id can be learned after the start (hooks, the exit line). */
  record(): HostRecord;
  /** The program's environment (where a kind's files are: CLAUDE_CONFIG_DIR, CODEX_HOME, ...). */
  env: Record<string, string | undefined>;
  write(usage: SessionUsage): void;
  onActivity(fn: (activity: string) => void): Disposable;
  log(line: string): void;
  clock: Clock;
  scheduler: Scheduler;
}

/** Keeps the session's `usage` fresh until disposed; reads once at once (a revived session shows its figures). */
export function keepUsageFresh(d: UsageLiveDeps): Disposable {
  const { config, errors } = readUserConfig();
  for (const e of errors) d.log(e);
  const keeper = new UsageKeeper({
    locate: () => {
      const r = d.record();
      return findUsageSource({ id: r.id, kind: d.kind, resumeId: r.resumeId, cwd: r.cwd, env: d.env });
    },
    onActivity: d.onActivity,
    write: d.write,
    log: d.log,
    prices: priceTable(config.prices),
    clock: d.clock,
    scheduler: d.scheduler,
  });
  keeper.read();
  return keeper;
}
