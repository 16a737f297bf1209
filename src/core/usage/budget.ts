/**
 * Budgets (issue 31, docs/usage.md "Budgets"), pure: which budgets bind a session (its own from
 * `new --budget`, its room's and the day's from config.json), how much of each is spent, and the
 * one line that says so. Spending is what the sessions' records say (`usage`, kept by their
 * runners from the agents' transcripts); the day's is each session's spending since its `usageDay`
 * snapshot (taken by its runner at local midnight, or when it started that day).
 */
import type { HostRecord } from '../protocol/host-record.js';
import type { SessionUsage, TokenCounts } from './usage-types.js';

/** A limit in US dollars and/or tokens (input + output + cache write + cache read); either may be absent. */
export interface BudgetLimit {
  usd?: number;
  tokens?: number;
}

/**
 * config.json `budgets`: per room (by name) and per local day, over every session of this machine;
 * and per session by name, which replaces that session's own (`new --budget`): how a user raises
 * a running session's budget.
 */
export interface BudgetsConfig {
  rooms: Record<string, BudgetLimit>;
  sessions?: Record<string, BudgetLimit>;
  day?: BudgetLimit;
}

export const NO_BUDGETS: Readonly<BudgetsConfig> = Object.freeze({ rooms: {} });

/** At this share of a budget the session's row is marked and a notification says so. */
export const WARN_SHARE = 0.8;

/** What a session has spent, as one pair of figures. */
export interface Spent {
  usd: number;
  tokens: number;
}

/** A session's spending when its day began (HostRecord.usageDay): `day` is the local date, YYYY-MM-DD. */
export interface DayStart extends Spent {
  day: string;
}

export type BudgetScope = 'session' | 'room' | 'day';
export type BudgetLevel = 'ok' | 'warned' | 'over';

/** One budget measured in one unit. */
export interface BudgetUse {
  scope: BudgetScope;
  unit: 'usd' | 'tokens';
  used: number;
  limit: number;
  /** used / limit. */
  share: number;
}

export interface BudgetVerdict {
  level: BudgetLevel;
  /** The budget nearest its end (the worst), or null when no budget binds the session. */
  worst: BudgetUse | null;
  /** One line for the row, the notification, `send` and the board; null when ok. */
  line: string | null;
}

export const tokenTotal = (t: TokenCounts): number => t.input + t.output + t.cacheWrite + t.cacheRead;

/** A session's spending so far; a cost no message could be priced for counts as $0 (its tokens still count). */
export function spentOf(u: SessionUsage | undefined): Spent {
  return u ? { usd: u.costUsd ?? 0, tokens: tokenTotal(u.tokens) } : { usd: 0, tokens: 0 };
}

/** What a session spent on `today`: since its day-start snapshot; nothing when its runner has not taken one today. */
export function spentToday(r: Pick<HostRecord, 'usage' | 'usageDay'>, today: string): Spent {
  if (r.usageDay?.day !== today) return { usd: 0, tokens: 0 };
  const now = spentOf(r.usage);
  return { usd: Math.max(0, now.usd - r.usageDay.usd), tokens: Math.max(0, now.tokens - r.usageDay.tokens) };
}

/** The snapshot a runner keeps: the one it has if it is today's, else its spending now. */
export function rollDayStart(r: Pick<HostRecord, 'usage' | 'usageDay'>, today: string): DayStart {
  return r.usageDay?.day === today ? r.usageDay : { day: today, ...spentOf(r.usage) };
}

const add = (a: Spent, b: Spent): Spent => ({ usd: a.usd + b.usd, tokens: a.tokens + b.tokens });
const roomName = (r: Pick<HostRecord, 'room'>) => r.room ?? 'default';

/**
 * The session's state against every budget that binds it. `all` is every session's record on
 * this machine (the session's own is replaced by `self`, the freshest): a room's spending is its
 * sessions' whole spending (a removed session's goes with it), the day's is every session's since
 * its day began.
 */
export function budgetVerdict(self: HostRecord, all: readonly HostRecord[], budgets: BudgetsConfig, today: string): BudgetVerdict {
  const records = [self, ...all.filter((r) => r.id !== self.id)];
  const uses: BudgetUse[] = [];
  const measure = (scope: BudgetScope, limit: BudgetLimit | undefined, spent: () => Spent) => {
    if (!limit || (limit.usd === undefined && limit.tokens === undefined)) return;
    const s = spent();
    for (const unit of ['usd', 'tokens'] as const) {
      const l = limit[unit];
      if (l !== undefined && l > 0) uses.push({ scope, unit, used: s[unit], limit: l, share: s[unit] / l });
    }
  };
  measure('session', budgets.sessions?.[self.name] ?? self.budget, () => spentOf(self.usage));
  const room = roomName(self);
  measure('room', budgets.rooms[room], () => records.filter((r) => roomName(r) === room).reduce((a, r) => add(a, spentOf(r.usage)), { usd: 0, tokens: 0 }));
  measure('day', budgets.day, () => records.reduce((a, r) => add(a, spentToday(r, today)), { usd: 0, tokens: 0 }));
  if (uses.length === 0) return { level: 'ok', worst: null, line: null };
  const worst = uses.reduce((a, b) => (b.share > a.share ? b : a));
  const level: BudgetLevel = worst.share >= 1 ? 'over' : worst.share >= WARN_SHARE ? 'warned' : 'ok';
  return { level, worst, line: level === 'ok' ? null : budgetLine(self.name, room, worst) };
}

/** `$4.00`, or `1.2M tokens`. */
export function formatAmount(unit: 'usd' | 'tokens', n: number): string {
  if (unit === 'usd') return `$${n.toFixed(2)}`;
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(2)}M tokens`;
  if (n >= 10_000) return `${+(n / 1000).toFixed(1)}k tokens`;
  return `${n} tokens`;
}

/** "<name> used 80 % of its budget ($4.00 of $5.00)", or "... is over its budget (...)". */
export function budgetLine(name: string, room: string, u: BudgetUse): string {
  const figures = `(${formatAmount(u.unit, u.used)} of ${formatAmount(u.unit, u.limit)})`;
  const who = u.scope === 'session' ? `${name}` : u.scope === 'room' ? `${name}'s room ${room}` : `${name}: today's spending`;
  const whose = u.scope === 'day' ? "the day's budget" : 'its budget';
  if (u.share >= 1) return `${who} is over ${whose} ${figures}`;
  const pct = Math.floor(u.share * 100);
  return u.scope === 'day' ? `${who} is at ${pct} % of ${whose} ${figures}` : `${who} used ${pct} % of ${whose} ${figures}`;
}

/** Why a prompt is held, with what lets it through, for `send` and the runner's refusal. */
export const overBudgetHint = 'new prompts are held until the budget is raised (config.json "budgets", or a new --budget); send --over-budget sends one anyway';

/** A budget as `--budget` takes it back: `$5`, `2000000 tokens`, `$5,2000000 tokens`. */
export function budgetText(b: BudgetLimit): string {
  return [b.usd !== undefined ? `$${b.usd}` : null, b.tokens !== undefined ? `${b.tokens} tokens` : null].filter(Boolean).join(',');
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9 };

/**
 * `new --budget`: `$5`, `5usd`, `2M tokens`, `500k tokens`, or both joined by a comma
 * (`$5,2M tokens`). A string is why the text is not a budget.
 */
export function parseBudget(text: string): BudgetLimit | string {
  const out: BudgetLimit = {};
  const parts = text.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  if (parts.length === 0) return 'a budget is $<dollars> or <number>[k|M] tokens, e.g. --budget \'$5\' or --budget "2M tokens"';
  for (const p of parts) {
    const usd = /^(?:\$\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:\$|usd|dollars?))$/.exec(p);
    const tok = /^(\d+(?:\.\d+)?)\s*([kmg]?)\s*(?:tokens?|tok)$/.exec(p);
    if (usd) {
      if (out.usd !== undefined) return `"${text}" names dollars twice`;
      out.usd = Number(usd[1] ?? usd[2]);
    } else if (tok) {
      if (out.tokens !== undefined) return `"${text}" names tokens twice`;
      out.tokens = Math.round(Number(tok[1]) * UNITS[tok[2]!]!);
    } else return `"${p}" is not a budget: use $<dollars> or <number>[k|M] tokens, e.g. '$5' or "2M tokens"`;
  }
  if (out.usd === 0 || out.tokens === 0) return `"${text}": a budget must be more than 0`;
  return out;
}

/** config.json's `budgets`, checked; each bad entry is one line in `errors` and is left out. */
export function parseBudgetsConfig(value: unknown, file: string, errors: string[]): BudgetsConfig {
  const out: BudgetsConfig = { rooms: {} };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(`${file}: "budgets" must be an object like {"rooms": {"default": {"usd": 20}}, "day": {"usd": 50}}; ignored`);
    return out;
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'rooms' && k !== 'sessions' && k !== 'day') errors.push(`${file}: "budgets.${k}" ignored (known: rooms, sessions, day)`);
  const limit = (v: unknown, where: string): BudgetLimit | undefined => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return void errors.push(`${file}: "${where}" must be like {"usd": 20} or {"tokens": 2000000}; ignored`);
    const l: BudgetLimit = {};
    for (const [unit, n] of Object.entries(v as Record<string, unknown>)) {
      if (unit !== 'usd' && unit !== 'tokens') errors.push(`${file}: "${where}.${unit}" ignored (known: usd, tokens)`);
      else if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) errors.push(`${file}: "${where}.${unit}" must be a number above 0; ignored`);
      else l[unit] = n;
    }
    return l.usd === undefined && l.tokens === undefined ? undefined : l;
  };
  if ('day' in o) {
    const d = limit(o.day, 'budgets.day');
    if (d) out.day = d;
  }
  for (const group of ['rooms', 'sessions'] as const) {
    if (!(group in o)) continue;
    const map = o[group];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) {
      errors.push(`${file}: "budgets.${group}" must map ${group === 'rooms' ? 'room' : 'session'} names to budgets; ignored`);
      continue;
    }
    const into: Record<string, BudgetLimit> = {};
    for (const [name, v] of Object.entries(map as Record<string, unknown>)) {
      const l = limit(v, `budgets.${group}.${name}`);
      if (l) into[name] = l;
    }
    if (group === 'rooms') out.rooms = into;
    else out.sessions = into;
  }
  return out;
}
