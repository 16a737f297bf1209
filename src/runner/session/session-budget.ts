/**
 * A session's budgets, as its runner holds to them (docs/usage.md, "Budgets"): the day's snapshot
 * of its spending kept in its record (`usageDay`, taken as it starts and at each local midnight),
 * and, asked per prompt and per wake, whether a spent budget holds new prompts. The budgets and the
 * other sessions' spending are read afresh each time it is asked (config.json and the records on
 * disk), so a budget raised in config.json lets the next prompt through without a restart.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { budgetVerdict, overBudgetHint, rollDayStart, type BudgetVerdict, type BudgetsConfig } from '../../core/usage/budget.js';
import type { Logger } from '../log.js';

export interface SessionBudgetDeps {
  /** The session's record as its runner keeps it now (fresher than its host.json). */
  record(): HostRecord;
  update(patch: Partial<HostRecord>): void;
  /** config.json's budgets, read now. */
  budgets(): BudgetsConfig;
  /** Every session's record on this machine, read now. */
  records(): readonly HostRecord[];
  /** The local date of a time (YYYY-MM-DD), and the time to the next local midnight. */
  today(ms: number): string;
  msToNextDay(ms: number): number;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
}

export class SessionBudget implements Disposable {
  private readonly midnight = new MutableDisposable();
  private lastLevel: BudgetVerdict['level'] = 'ok';

  constructor(private readonly d: SessionBudgetDeps) {}

  /** Takes today's snapshot if the record has none, and again at each local midnight. */
  start(): void {
    this.roll(this.d.clock.now());
  }

  private roll(now: number): string {
    const today = this.d.today(now);
    const rec = this.d.record();
    const next = rollDayStart(rec, today);
    if (next !== rec.usageDay) this.d.update({ usageDay: next });
    if (!this.midnight.value) {
      this.midnight.value = this.d.scheduler.setTimeout(() => {
        this.midnight.clear();
        this.roll(this.d.clock.now());
      }, this.d.msToNextDay(now));
    }
    return today;
  }

  /** The session against its budgets now. */
  verdict(): BudgetVerdict {
    const today = this.roll(this.d.clock.now());
    const v = budgetVerdict(this.d.record(), this.d.records(), this.d.budgets(), today);
    if (v.level !== this.lastLevel) this.d.log(`budget: ${v.level}${v.line ? ` (${v.line})` : ''}`);
    this.lastLevel = v.level;
    return v;
  }

  /** Why new prompts are held (one line: which budget, its figures, what lets a prompt through), or null. */
  held(): string | null {
    const v = this.verdict();
    return v.level === 'over' ? `${v.line}: ${overBudgetHint}` : null;
  }

  dispose(): void {
    this.midnight.dispose();
  }
}
