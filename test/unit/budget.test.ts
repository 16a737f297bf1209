/** Budgets (src/core/usage/budget.ts): which bind a session, how much of each is spent, the line that says so. */
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { budgetVerdict, parseBudget, parseBudgetsConfig, rollDayStart, spentToday, type BudgetsConfig } from '../../src/core/usage/budget.js';
import type { SessionUsage } from '../../src/core/usage/usage-types.js';
import { rowStatusText, statusText } from '../../src/core/board/board-derived.js';
import { noticeText } from '../../src/core/board/notice-text.js';
import { NoticeWatch, type SeenSession } from '../../src/core/board/notify.js';
import { stateLabel } from '../../src/core/session-state.js';
import { webRow } from '../../src/core/web/web-rows.js';
import { outcomeLine } from '../../src/web/server/hub/prompt-sends.js';

const TODAY = '2026-12-04';

function usage(costUsd: number | null, input = 0, output = 0): SessionUsage {
  return { tokens: { input, output, cacheWrite: 0, cacheRead: 0 }, costUsd, unpriced: [], models: ['m'], messages: 1, file: '/t.jsonl', skipped: 0, updatedAt: '2026-12-04T10:00:00.000Z' };
}

function rec(id: string, o: Partial<HostRecord> = {}): HostRecord {
  return {
    id, name: id, room: 'default', agent: 'claude', command: 'claude', args: [], cwd: '/', createdAt: '', updatedAt: '', heartbeatAt: '',
    lastOutputAt: null, runnerPid: null, childPid: null, generation: null, status: 'running', cols: 80, rows: 24, exitCode: null, exitSignal: null, scrollback: 0, ...o,
  };
}

const none: BudgetsConfig = { rooms: {} };

describe('budgetVerdict', () => {
  it('no budget: ok, no line', () => {
    expect(budgetVerdict(rec('a', { usage: usage(100) }), [], none, TODAY)).toEqual({ level: 'ok', worst: null, line: null });
  });

  it("the session's own budget: ok under 80 %, warned from 80 %, over from 100 %", () => {
    const at = (usd: number) => budgetVerdict(rec('api', { budget: { usd: 5 }, usage: usage(usd) }), [], none, TODAY);
    expect(at(3.99)).toMatchObject({ level: 'ok', line: null });
    expect(at(4)).toMatchObject({ level: 'warned', line: 'api used 80 % of its budget ($4.00 of $5.00)' });
    expect(at(4.99).line).toBe('api used 99 % of its budget ($4.99 of $5.00)');
    expect(at(5)).toMatchObject({ level: 'over', line: 'api is over its budget ($5.00 of $5.00)' });
    expect(at(7.5).line).toBe('api is over its budget ($7.50 of $5.00)');
  });

  it('tokens count input, output and cache; an unpriced cost counts $0 and its tokens still count', () => {
    const r = rec('a', { budget: { tokens: 2_000_000, usd: 1 }, usage: { ...usage(null, 1_000_000, 500_000), tokens: { input: 1_000_000, output: 500_000, cacheWrite: 100_000, cacheRead: 100_000 } } });
    expect(budgetVerdict(r, [], none, TODAY)).toMatchObject({ level: 'warned', line: 'a used 85 % of its budget (1.7M tokens of 2M tokens)' });
  });

  it("the room's budget sums its sessions' spending (the session's own record is the fresh one); other rooms do not count", () => {
    const budgets: BudgetsConfig = { rooms: { r1: { usd: 20 } } };
    const self = rec('a', { room: 'r1', usage: usage(10) });
    const others = [rec('a', { room: 'r1', usage: usage(1) }), rec('b', { room: 'r1', usage: usage(7) }), rec('c', { room: 'r2', usage: usage(100) })];
    expect(budgetVerdict(self, others, budgets, TODAY)).toMatchObject({ level: 'warned', line: "a's room r1 used 85 % of its budget ($17.00 of $20.00)" });
    // A record without a room is in `default`.
    expect(budgetVerdict(rec('d', { room: undefined, usage: usage(21) }), [], { rooms: { default: { usd: 20 } } }, TODAY).line).toBe("d's room default is over its budget ($21.00 of $20.00)");
  });

  it("the day's budget counts each session's spending since its day-start snapshot; a snapshot of another day counts nothing", () => {
    const budgets: BudgetsConfig = { rooms: {}, day: { usd: 50 } };
    const self = rec('a', { usage: usage(30), usageDay: { day: TODAY, usd: 10, tokens: 0 } });
    const others = [rec('b', { room: 'r9', usage: usage(40), usageDay: { day: TODAY, usd: 5, tokens: 0 } }), rec('c', { usage: usage(999), usageDay: { day: '2026-12-03', usd: 0, tokens: 0 } })];
    expect(budgetVerdict(self, others, budgets, TODAY)).toMatchObject({ level: 'over', line: "a: today's spending is over the day's budget ($55.00 of $50.00)" });
    expect(budgetVerdict(self, [], budgets, TODAY)).toMatchObject({ level: 'ok' });
    expect(budgetVerdict(self, [others[0]!], { rooms: {}, day: { usd: 60 } }, TODAY).line).toBe("a: today's spending is at 91 % of the day's budget ($55.00 of $60.00)");
  });

  it("config.json's budget for a session by name replaces its own (how a running session's budget is raised)", () => {
    const r = rec('api', { budget: { usd: 5 }, usage: usage(6) });
    expect(budgetVerdict(r, [], none, TODAY).level).toBe('over');
    expect(budgetVerdict(r, [], { rooms: {}, sessions: { api: { usd: 10 } } }, TODAY)).toMatchObject({ level: 'ok', line: null });
    expect(budgetVerdict(r, [], { rooms: {}, sessions: { other: { usd: 1 } } }, TODAY).level).toBe('over');
  });

  it('the worst budget is the one the line names', () => {
    const budgets: BudgetsConfig = { rooms: { default: { usd: 100 } }, day: { usd: 1000 } };
    const v = budgetVerdict(rec('a', { budget: { usd: 10 }, usage: usage(9), usageDay: { day: TODAY, usd: 0, tokens: 0 } }), [], budgets, TODAY);
    expect(v.worst).toMatchObject({ scope: 'session', unit: 'usd', used: 9, limit: 10 });
  });
});

describe('the day-start snapshot', () => {
  it("is kept on its day, taken anew (the spending now) on another, and today's spending counts from it", () => {
    const kept = { day: TODAY, usd: 2, tokens: 10 };
    expect(rollDayStart({ usage: usage(5), usageDay: kept }, TODAY)).toBe(kept);
    expect(rollDayStart({ usage: usage(5, 7, 3), usageDay: { ...kept, day: '2026-12-03' } }, TODAY)).toEqual({ day: TODAY, usd: 5, tokens: 10 });
    expect(rollDayStart({}, TODAY)).toEqual({ day: TODAY, usd: 0, tokens: 0 });
    expect(spentToday({ usage: usage(5, 20, 0), usageDay: kept }, TODAY)).toEqual({ usd: 3, tokens: 10 });
    expect(spentToday({ usage: usage(5), usageDay: kept }, '2026-12-05')).toEqual({ usd: 0, tokens: 0 });
  });
});

describe('parseBudget (new --budget)', () => {
  it('takes dollars, tokens, or both', () => {
    expect(parseBudget('$5')).toEqual({ usd: 5 });
    expect(parseBudget('$2.50')).toEqual({ usd: 2.5 });
    expect(parseBudget('5 usd')).toEqual({ usd: 5 });
    expect(parseBudget('2M tokens')).toEqual({ tokens: 2_000_000 });
    expect(parseBudget('500k tokens')).toEqual({ tokens: 500_000 });
    expect(parseBudget('$5, 2M tokens')).toEqual({ usd: 5, tokens: 2_000_000 });
  });
  it('says why a text is not a budget', () => {
    expect(parseBudget('5')).toMatch(/not a budget/);
    expect(parseBudget('$0')).toMatch(/more than 0/);
    expect(parseBudget('$1,$2')).toMatch(/dollars twice/);
    expect(parseBudget('')).toMatch(/a budget is/);
  });
});

describe('config.json budgets', () => {
  it('reads rooms and the day; each bad entry is one line and is left out', () => {
    const errors: string[] = [];
    const b = parseBudgetsConfig({ rooms: { default: { usd: 20 }, r2: { tokens: -1 }, r3: 'x' }, day: { usd: 50, euros: 3 }, week: {} }, 'c.json', errors);
    expect(b).toEqual({ rooms: { default: { usd: 20 } }, day: { usd: 50 } });
    expect(errors).toEqual([
      'c.json: "budgets.week" ignored (known: rooms, sessions, day)',
      'c.json: "budgets.day.euros" ignored (known: usd, tokens)',
      'c.json: "budgets.rooms.r2.tokens" must be a number above 0; ignored',
      'c.json: "budgets.rooms.r3" must be like {"usd": 20} or {"tokens": 2000000}; ignored',
    ]);
  });
});

describe('what a budget shows and rings', () => {
  const warned = { level: 'warned' as const, percent: 85, line: 'api used 85 % of its budget ($4.25 of $5.00)' };
  const over = { level: 'over' as const, percent: 104, line: 'api is over its budget ($5.20 of $5.00)' };

  it('a running session notes it after its state (ls, web rows), and the row says only the note; an exited one does not', () => {
    const base = rec('api', { activity: 'idle' });
    expect(stateLabel({ ...base, budgetState: warned })).toBe('idle · budget 85%');
    expect(stateLabel({ ...base, budgetState: over })).toBe('idle · over budget');
    expect(rowStatusText({ ...base, budgetState: over })).toBe('overbudget'); // a row's ten columns
    expect(statusText({ ...base, budgetState: warned })).toBe('idle · budget 85%');
    expect(stateLabel({ ...base, status: 'exited', exitCode: 0, budgetState: over })).toBe('exited(0)');
    expect(stateLabel(base)).toBe('idle');
    expect(webRow({ ...base, budgetState: over }, () => null).stateText).toBe('idle · over budget');
  });

  it("the web page's prompt box says the budget's line for a session that held it", () => {
    const message = `${over.line}: new prompts are held until the budget is raised`;
    expect(outcomeLine('api', { status: 'not_typed', commandId: 'c', message, exitCode: 16 })).toBe(`api: ${message}`);
  });

  it('rings once when a budget reaches 80 %, once more when it is spent, never on the first look', () => {
    const w = new NoticeWatch();
    const S = (budget?: SeenSession['budget']): SeenSession => ({ id: 'a', name: 'api', state: 'busy', source: 'hook', budget });
    expect(w.see([S(warned)])).toEqual([]); // the first look only remembers
    const w2 = new NoticeWatch();
    expect(w2.see([S()])).toEqual([]);
    expect(w2.see([S(warned)])).toEqual([{ id: 'a', name: 'api', from: 'busy', to: 'busy', budget: { level: 'warned', line: warned.line } }]);
    expect(w2.see([S({ ...warned, line: 'api used 90 % of its budget ($4.50 of $5.00)' })])).toEqual([]); // the same level again: no
    expect(w2.see([S(over)]).map((c) => c.budget?.level)).toEqual(['over']);
    expect(w2.see([S(over)])).toEqual([]);
  });

  it('the notification says who used how much of which budget', () => {
    expect(noticeText({ name: 'api', to: 'busy', budget: { level: 'warned', line: warned.line } }, { lastLine: 'working' })).toEqual({ title: warned.line, body: '' });
    expect(noticeText({ name: 'api', to: 'idle', budget: { level: 'over', line: over.line } }, {})).toEqual({ title: over.line, body: 'new prompts are held until the budget is raised' });
  });
});
