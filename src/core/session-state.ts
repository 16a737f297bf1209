/**
 * The one word a user sees for a session, from its status (is there a
 * program at all) and its activity (what the program is doing, layered by
 * the runner from the agent's hooks, title, screen or bytes; see
 * src/core/agents/activity.ts). The board, `ls` and the notifications all use it.
 */
import type { HostRecord } from './protocol/host-record.js';
import { writeFailureWord } from './write-failure.js';

/** Every state word a session can show (the type is read off this list). */
export const SESSION_STATES = ['starting', 'busy', 'idle', 'waiting', 'limited', 'exited', 'lost'] as const;

export type SessionState = (typeof SESSION_STATES)[number];

/**
 * exited and lost come from the status (the effective one: a vanished runner
 * is lost); a running session says what its activity says; a session that is
 * still starting, or whose runner has not said anything about its activity
 * yet, is `starting`. A running session whose agent said it hit a usage limit is `limited`
 * (its runner keeps `limited` in the record until the reset has passed and the agent works again:
 * src/runner/activity/limit-watch.ts), whatever its activity.
 */
export function sessionState(s: Pick<HostRecord, 'status' | 'activity'> & { limited?: HostRecord['limited'] }): SessionState {
  if (s.status === 'exited' || s.status === 'lost') return s.status;
  if (s.limited && s.status === 'running') return 'limited';
  if (s.status === 'starting' || !s.activity) return 'starting';
  return s.activity;
}

/**
 * How an exited program ended: `ok` (code 0), `killed` (it ended after a user asked for it:
 * `kill`, the board's x, `rm --force`, `restart`; the runner records that as `killed`), or
 * `failed` (any other code, or a signal nobody asked for).
 */
export type ExitKind = 'ok' | 'killed' | 'failed';

export function exitKind(s: Pick<HostRecord, 'exitCode' | 'exitSignal' | 'killed'>): ExitKind {
  if (s.killed) return 'killed';
  return s.exitCode === 0 && !s.exitSignal ? 'ok' : 'failed';
}

/** The state with how an exited session ended, as `ls` prints it: `busy`, `exited(0)`, `exited(SIGSEGV)`, `killed(SIGHUP)`, `idle · disk full`. */
export function stateLabel(s: Pick<HostRecord, 'status' | 'activity' | 'exitCode' | 'exitSignal' | 'killed' | 'cannotWrite' | 'budgetState'>): string {
  const state = sessionState(s);
  if (state !== 'exited') return withStateNote(state, s);
  return withStateNote(`${exitKind(s) === 'killed' ? 'killed' : 'exited'}(${s.exitSignal ?? s.exitCode ?? '?'})`, s);
}

/**
 * What keeps a session's live runner from writing its record (`disk full`), said after its
 * state, or null: the runner says it (hello, status), and it is alive, never lost for it. Else a
 * running session's budget, 80 % used (`budget 85%`) or spent (`over budget`: its new prompts are
 * held; docs/usage.md, "Budgets"). `narrow`: in a board row's ten columns (`overbudget`).
 */
export function stateNote(s: Pick<HostRecord, 'status' | 'cannotWrite' | 'budgetState'>, narrow = false): string | null {
  if (s.cannotWrite && s.status !== 'lost') return writeFailureWord(s.cannotWrite);
  if (!s.budgetState || (s.status !== 'running' && s.status !== 'starting')) return null;
  if (s.budgetState.level === 'over') return narrow ? 'overbudget' : 'over budget';
  return `budget ${Math.min(99, s.budgetState.percent)}%`;
}

/** `label · note` when there is a note. */
export function withStateNote(label: string, s: Pick<HostRecord, 'status' | 'cannotWrite' | 'budgetState'>): string {
  const note = stateNote(s);
  return note ? `${label} · ${note}` : label;
}
