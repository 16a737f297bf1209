/**
 * A session's budgets, as its runner holds to them (docs/usage.md, "Budgets"): the day's snapshot
 * of its spending kept in its record (`usageDay`, taken as it starts and at each local midnight,
 * while config.json has a day's budget);
 * the state (`budgetState`: 80 % used, or spent) kept in its record for `ls`, the board, the web
 * page and the notifications; and, asked per prompt and per wake, whether a spent budget holds new
 * prompts. The budgets and the other sessions' spending are read afresh each time (config.json and
 * the records on disk), so a budget raised in config.json lets the next prompt through.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { DisposableStore, MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { budgetVerdict, overBudgetHint, rollDayStart, type BudgetVerdict, type BudgetsConfig } from '../../core/usage/budget.js';
import type { Logger } from '../log.js';

/**
 * How often the runner measures its budgets again between prompts, so a row is marked while the
 * agent spends (its usage grows) or when the budgets change in config.json. Each look reads
 * config.json and, with a room's or the day's budget set, every session's host.json: 50 sessions
 * cost a runner 1.6 ms a look, so 50 runners about 0.3 % of a core (measured: docs/usage.md).
 */
export const BUDGET_REFRESH_MS = 30_000;

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
  /** Default BUDGET_REFRESH_MS (tests: AGENT_BOARD_TEST_BUDGET_REFRESH_MS). */
  refreshMs?: number;
}

export class SessionBudget implements Disposable {
  private readonly store = new DisposableStore();
  private readonly midnight = this.store.add(new MutableDisposable());

  constructor(private readonly d: SessionBudgetDeps) {}

  /** Measures (taking today's snapshot, with a day's budget, if the record has none), and keeps measuring. */
  start(): void {
    this.verdict();
    this.store.add(this.d.scheduler.setInterval(() => this.verdict(), this.d.refreshMs ?? BUDGET_REFRESH_MS));
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

  /** The session against its budgets now; the record says so when that changed. */
  verdict(): BudgetVerdict {
    const budgets = this.d.budgets();
    // The local day only with a day's budget: reading the time zone costs an idle runner memory (ICU's zone data).
    const today = budgets.day ? this.roll(this.d.clock.now()) : '';
    const rec = this.d.record();
    // The other sessions' records only when a budget counts them (the room's, the day's).
    const others = budgets.day !== undefined || budgets.rooms[rec.room ?? 'default'] !== undefined;
    const v = budgetVerdict(rec, others ? this.d.records() : [], budgets, today);
    const was = rec.budgetState;
    const now = v.level === 'ok' || v.line === null || !v.worst ? undefined : { level: v.level, percent: Math.floor(v.worst.share * 100), line: v.line };
    if (was?.level !== now?.level || was?.line !== now?.line) {
      this.d.update({ budgetState: now });
      if (was?.level !== now?.level) this.d.log(`budget: ${now ? `${now.level} (${now.line})` : 'ok'}`);
    }
    return v;
  }

  /** Why new prompts are held (one line: which budget, its figures, what lets a prompt through), or null. */
  held(): string | null {
    const v = this.verdict();
    return v.level === 'over' ? `${v.line}: ${overBudgetHint}` : null;
  }

  dispose(): void {
    this.store.dispose();
  }
}
