/**
 * The runner's hold on its session's budgets (src/runner/session/session-budget.ts), on a fake
 * clock: the budget's state kept in the record as the spending grows, the day's snapshot taken
 * at start and at local midnight (only with a day's budget), and the line that holds prompts.
 */
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { BudgetsConfig } from '../../src/core/usage/budget.js';
import { BUDGET_REFRESH_MS, SessionBudget } from '../../src/runner/session/session-budget.js';
import { FakeTime } from '../helpers/fake-time.js';

const DAY_MS = 86_400_000;

function rig(budgets: BudgetsConfig, rec: Partial<HostRecord> = {}) {
  const time = new FakeTime(10 * DAY_MS + 23 * 3_600_000); // day 10, 23:00 (the fake "local" day is UTC's)
  const record = { id: 'a', name: 'api', room: 'default', status: 'running', ...rec } as HostRecord;
  const log: string[] = [];
  const day = (ms: number) => `day-${Math.floor(ms / DAY_MS)}`;
  const b = new SessionBudget({
    record: () => record,
    update: (patch) => Object.assign(record, patch),
    budgets: () => budgets,
    records: () => [],
    today: day,
    msToNextDay: (ms) => DAY_MS - (ms % DAY_MS),
    clock: time,
    scheduler: time,
    log: (l) => log.push(l),
  });
  const spend = (usd: number) => {
    record.usage = { tokens: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 }, costUsd: usd, unpriced: [], models: [], messages: 1, file: '', skipped: 0, updatedAt: '' };
  };
  return { time, record, log, b, spend };
}

describe('SessionBudget', () => {
  it('keeps the state in the record as the spending grows, looked at every BUDGET_REFRESH_MS, and holds prompts once spent', () => {
    const { time, record, log, b, spend } = rig({ rooms: {} }, { budget: { usd: 5 } });
    b.start();
    expect(record.budgetState).toBeUndefined();
    expect(b.held()).toBeNull();
    spend(4.2);
    time.advance(BUDGET_REFRESH_MS - 1);
    expect(record.budgetState).toBeUndefined(); // not looked yet
    time.advance(1);
    expect(record.budgetState).toEqual({ level: 'warned', percent: 84, line: 'api used 84 % of its budget ($4.20 of $5.00)' });
    spend(5.5);
    expect(b.held()).toBe('api is over its budget ($5.50 of $5.00): new prompts are held until the budget is raised (config.json "budgets", or a new --budget); send --over-budget sends one anyway');
    expect(record.budgetState?.level).toBe('over');
    expect(log).toEqual(['budget: warned (api used 84 % of its budget ($4.20 of $5.00))', 'budget: over (api is over its budget ($5.50 of $5.00))']);
    b.dispose();
    spend(1);
    time.advance(BUDGET_REFRESH_MS * 3);
    expect(record.budgetState?.level).toBe('over'); // disposed: no timer left
  });

  it("without a day's budget takes no day snapshot; with one, at start and again at midnight, from the spending then", () => {
    const none = rig({ rooms: {} });
    none.b.start();
    none.time.advance(2 * DAY_MS);
    expect(none.record.usageDay).toBeUndefined();

    const { time, record, b, spend } = rig({ rooms: {}, day: { usd: 6 } });
    spend(3);
    b.start();
    expect(record.usageDay).toEqual({ day: 'day-10', usd: 3, tokens: 0 });
    spend(8); // $5 today
    time.advance(BUDGET_REFRESH_MS);
    expect(record.budgetState?.line).toBe("api: today's spending is at 83 % of the day's budget ($5.00 of $6.00)");
    time.advance(3_600_000); // midnight
    expect(record.usageDay).toEqual({ day: 'day-11', usd: 8, tokens: 0 });
    time.advance(BUDGET_REFRESH_MS);
    expect(record.budgetState).toBeUndefined();
    b.dispose();
  });
});
