/**
 * A usage limit as a session's state (issue 31, items 4 and 5; docs/usage.md, "Carrying on
 * after a limit"): the countdown to its reset as the board and `ls` show it, and the
 * resume-after-limit policy the runner follows (its tries per day, the prompt's command id).
 * Pure: the time comes in as `now` (ms since the epoch).
 */
import type { HostRecord, LimitResumeTry } from '../protocol/host-record.js';
import type { LimitSeen } from './usage-types.js';

/** A detector of a usage limit on an agent's screen: src/core/usage/limits/index.ts `limitSeen`, or a test's own. */
export type LimitDetector = (kind: string, screenLines: readonly string[], now: number) => LimitSeen | null;

/** What `new --resume-after-limit` types when no prompt is given. */
export const DEFAULT_RESUME_PROMPT = 'continue';
/** How many times a day the runner types it at most, unless told otherwise (`perDay`). */
export const DEFAULT_RESUME_PER_DAY = 3;
/**
 * The "day" tries are counted over: the last 24 hours, not the calendar day, so the count does not
 * depend on the machine's time zone and a try late in the evening still counts the next morning.
 */
export const RESUME_DAY_MS = 24 * 3600_000;
/**
 * Two sightings whose resets are this close are the same limit: an agent says "try again in 2
 * hours" a minute apart, or a revived program says its limit again, and a limit's reset is
 * stated to the minute at best. Limits that reset this close to each other are not told apart.
 */
export const SAME_RESET_MS = 2 * 60_000;

/** The time left before `resetAt`, short: "2h13m", "5m", "45s"; "reset" once it has passed. */
export function limitCountdown(resetAt: string, now: number): string {
  const ms = Date.parse(resetAt) - now;
  if (!Number.isFinite(ms) || ms <= 0) return 'reset';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * When a limit resets, on this machine's clock: "15:04", or "2026-12-05 15:04" when that is not
 * within the next day (a weekly limit).
 */
export function resetClock(resetAt: string, now: number): string {
  const at = Date.parse(resetAt);
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return at - now < RESUME_DAY_MS - 3600_000 ? hm : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${hm}`;
}

/** The state word with its countdown, as the board's row shows it: "limited · 2h13m", or "limited" when the agent did not say when. */
export function limitedLabel(limited: Pick<LimitSeen, 'resetAt'>, now: number): string {
  return limited.resetAt ? `limited · ${limitCountdown(limited.resetAt, now)}` : 'limited';
}

/**
 * How often a limited row's countdown must move: each second in its last minute, else each
 * minute (it shows minutes); null when nothing counts down.
 */
export function countdownTickMs(resetAts: readonly (string | null | undefined)[], now: number): number | null {
  let tick: number | null = null;
  for (const r of resetAts) {
    if (!r) continue;
    const left = Date.parse(r) - now;
    if (!(left > 0)) continue;
    const t = left <= 60_000 ? 1000 : 60_000;
    tick = tick === null ? t : Math.min(tick, t);
  }
  return tick;
}

/**
 * The prompt's command id for a limit, from its reset and when it was seen: the same in every
 * runner (a revived one keeps the record's limit, LimitWatch), so the journal types it once.
 */
export function resumeCommandId(limited: { resetAt: string; since: string }): string {
  return `resume-after-limit.${Math.floor(Date.parse(limited.resetAt) / 1000)}.${Math.floor(Date.parse(limited.since) / 1000)}`;
}

/** The tries of the last day (RESUME_DAY_MS), oldest first. */
export function recentTries(tries: readonly LimitResumeTry[] | undefined, now: number): LimitResumeTry[] {
  return (tries ?? []).filter((t) => now - Date.parse(t.at) < RESUME_DAY_MS).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** How many tries are left in the last day. */
export function triesLeft(rec: Pick<HostRecord, 'resumeAfterLimit' | 'limitResumes'>, now: number): number {
  if (!rec.resumeAfterLimit) return 0;
  return Math.max(0, rec.resumeAfterLimit.perDay - recentTries(rec.limitResumes, now).length);
}

/**
 * Whether a try was already made after this limit: after it was seen, for its reset (within
 * SAME_RESET_MS). A limit seen after the try is a new one, whatever its reset: the agent said it again.
 */
export function triedAfter(limited: Pick<LimitSeen, 'resetAt'> & { since: string }, tries: readonly LimitResumeTry[] | undefined): boolean {
  if (!limited.resetAt) return false;
  const r = Date.parse(limited.resetAt);
  const seen = Date.parse(limited.since);
  return (tries ?? []).some((t) => Date.parse(t.at) >= seen && Math.abs(Date.parse(t.resetAt) - r) < SAME_RESET_MS);
}

/** Whether a new sighting is the limit the record already has (its reset within SAME_RESET_MS), not yet tried after. */
export function sameLimit(cur: LimitSeen & { since: string }, seen: LimitSeen, tries: readonly LimitResumeTry[] | undefined): boolean {
  if (triedAfter(cur, tries)) return false;
  if (cur.resetAt === null || seen.resetAt === null) return cur.resetAt === seen.resetAt && cur.line === seen.line;
  return Math.abs(Date.parse(cur.resetAt) - Date.parse(seen.resetAt)) < SAME_RESET_MS;
}

/** A clock time names its minute: the limit it names is surely over at that minute's end. */
const MINUTE_MS = 60_000;

/** When the limit is surely over: its reset, or the end of the minute the agent named (`resetToMinute`). */
function resetOver(limited: Pick<LimitSeen, 'resetAt' | 'resetToMinute'>): number | null {
  if (!limited.resetAt) return null;
  return Date.parse(limited.resetAt) + (limited.resetToMinute ? MINUTE_MS : 0);
}

/** What the runner does about a limited session with resume-after-limit, now. */
export type ResumePlan =
  /** Nothing: not limited, not turned on, no reset time known, or already tried after this limit. */
  | { kind: 'none'; why: string }
  /** Type the prompt at `at` (the reset, or the end of the minute named, plus the delay), under `commandId`. */
  | { kind: 'type'; at: number; commandId: string; prompt: string }
  /** Every try of the day is spent: look again at `at`, when the oldest one is a day old. */
  | { kind: 'spent'; at: number };

/**
 * The plan for `rec` at `now`, with `delayMs` (the small random delay after the reset: a fleet of
 * sessions that hit the same limit does not all come back at the same second).
 */
export function resumePlan(rec: Pick<HostRecord, 'limited' | 'resumeAfterLimit' | 'limitResumes'>, now: number, delayMs: number): ResumePlan {
  const { limited, resumeAfterLimit: resume } = rec;
  if (!resume) return { kind: 'none', why: 'resume-after-limit is off' };
  if (!limited) return { kind: 'none', why: 'not limited' };
  if (!limited.resetAt) return { kind: 'none', why: 'the agent did not say when its limit resets' };
  if (triedAfter(limited, rec.limitResumes)) return { kind: 'none', why: 'tried once after this limit: waiting for the next one' };
  // "resets 10:03 PM" is 10:03:00 on the screen, but the limit may hold until 10:03:59: a prompt typed
  // before then is refused, and the agent's limit seen again names a reset already passed.
  const at = resetOver(limited)! + delayMs;
  const recent = recentTries(rec.limitResumes, now);
  if (recent.length >= resume.perDay) return { kind: 'spent', at: Math.max(at, Date.parse(recent[recent.length - resume.perDay]!.at) + RESUME_DAY_MS) };
  return { kind: 'type', at, commandId: resumeCommandId({ resetAt: limited.resetAt, since: limited.since }), prompt: resume.prompt };
}
