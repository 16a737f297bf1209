/**
 * `revive`: lost sessions (their runner gone: a reboot, a logout, a crash) brought back in
 * place, for the CLI and the board: a new runner and program with the same id, name, room,
 * folder, worktree and kind, the conversation resumed where the kind can (a shell starts fresh
 * in its folder). Never a second runner beside a live one: the record, the revive claim and
 * the socket are all asked first (see reviveSession).
 */
import fs from 'node:fs';
import type { Time } from '../../core/clock.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { EXIT, UserError } from '../../state/errors.js';
import { readHostFile, viewOf, type SessionView } from '../../state/host-store.js';
import { hostFile, socketPath } from '../../state/paths.js';
import { claimRevive } from '../../state/revive-claim.js';
import { RunnerConnection } from '../link/connection.js';
import { askSilentRunner } from './silent-runners.js';
import { stateNote } from '../../core/session-state.js';
import { restartSession, type Restarted } from './session-actions.js';
import { RUNNER_START_TIMEOUT_MS } from './runner-start.js';

/**
 * How many sessions are revived at once. A runner's start is mostly waiting (the node start,
 * the program's spawn, the hello), and each session has its own files and socket, so starts in
 * parallel share nothing. Measured on 2 busy cores, 20 lost `sleep` sessions: one at a time
 * 11.4 s, 4 at a time 4.3 s, 8 at a time 3.7 s; more only makes each start slower on a small
 * machine.
 */
export const REVIVE_PARALLEL = 4;
/** How long a runner on the session's socket has to answer before it is taken as gone. */
const PROBE_TIMEOUT_MS = 1000;

/** What became of one session. */
export type ReviveOutcome =
  | { kind: 'revived'; session: SessionView; record: HostRecord; conversation: Restarted['conversation'] }
  | { kind: 'running'; session: SessionView; why: string }
  | { kind: 'exited'; session: SessionView }
  /** `sandbox`: its sandbox cannot be made here (EXIT.cannotSandbox: it was left lost, never started unsandboxed). */
  | { kind: 'failed'; session: SessionView; reason: string; sandbox?: true }
  /** A session of another machine (the board's --host), revived there: the line its `agent-board revive` printed. */
  | { kind: 'remote'; session: SessionView; line: string; ok: boolean };

/** `1b2c…`: enough of a conversation id to know it by. */
const short = (id: string) => (id.length > 8 ? `${id.slice(0, 4)}…` : id);

/** The one line a user reads for a session's revive. */
export function reviveLine(o: ReviveOutcome): string {
  const name = o.session.name;
  switch (o.kind) {
    case 'revived': {
      const { agent, cwd, resumeId } = o.record;
      const c = o.conversation;
      if (c.outcome === 'resumed' && resumeId) return `${name} revived (${agent}, conversation ${short(resumeId)} resumed)`;
      if (c.outcome === 'none') return `${name} revived (${agent}, started fresh in ${cwd})`;
      return `${name} revived (${agent}, ${c.note})`;
    }
    case 'running':
      return `${name} ${o.why}: nothing to do`;
    case 'exited':
      return `${name} has exited, it is not lost: revive leaves it (start it again with: agent-board restart ${name})`;
    case 'failed':
      return `${name} not revived: ${o.reason}`;
    case 'remote':
      return `${o.session.host ?? 'remote'}: ${o.line}`;
  }
}

/** Whether a runner answers on the session's socket (then it is alive, whatever the record says). */
async function runnerAnswers(home: string, id: string, time: Time): Promise<boolean> {
  const sock = socketPath(home, id);
  if (!fs.existsSync(sock)) return false;
  try {
    const conn = await RunnerConnection.open(sock, { client: 'revive', readOnly: true, scheduler: time.scheduler, timeoutMs: PROBE_TIMEOUT_MS });
    conn.dispose();
    return true;
  } catch {
    return false; // refused (a socket left by a runner that died) or silent: no runner serves it
  }
}

/** The session as its record says now, and why it must not be revived (null: it may). */
async function standing(home: string, s: SessionView, time: Time): Promise<{ view: SessionView; not: ReviveOutcome | null }> {
  const rec = readHostFile(hostFile(home, s.id));
  if (!rec) return { view: s, not: { kind: 'failed', session: s, reason: `its record ${hostFile(home, s.id)} is gone or unreadable` } };
  const now = time.clock.now();
  let view = viewOf(rec, now);
  if (view.status === 'exited') return { view, not: { kind: 'exited', session: view } };
  // Written by `new` or a restart whose runner has not said its pid yet: it is on its way.
  const age = now - Date.parse(rec.updatedAt);
  if (rec.status === 'starting' && rec.runnerPid === null && age >= -1000 && age < RUNNER_START_TIMEOUT_MS) {
    return { view, not: { kind: 'running', session: view, why: 'is starting' } };
  }
  // Alive with a stale heartbeat: a runner that cannot write (a full disk) answers, a wedged one does not.
  if (view.runnerAlive && (view.heartbeatStale || view.status === 'lost')) {
    view = await askSilentRunner(home, { ...view, heartbeatStale: true }, time.scheduler);
    if (view.status === 'exited') return { view, not: { kind: 'exited', session: view } }; // its exit not on disk yet: the runner waits for room
  }
  if (view.runnerAlive && view.status !== 'lost') {
    const note = stateNote(view);
    return { view, not: { kind: 'running', session: view, why: note ? `is running (its runner answers; its record cannot be written: ${note})` : 'is running' } };
  }
  if (view.runnerAlive) {
    // Alive but silent on disk and on its socket: wedged, or stopped. Not ours to replace while it runs.
    const reason = `its runner (pid ${view.runnerPid}) still runs but does not answer; end it first (kill ${view.runnerPid}), then revive it`;
    return { view, not: { kind: 'failed', session: view, reason } };
  }
  if (await runnerAnswers(home, s.id, time)) return { view, not: { kind: 'running', session: view, why: 'is running (its runner answers)' } };
  return { view, not: null };
}

/**
 * Brings one lost session back; never rejects (a failure is an outcome). Asked in this order,
 * each a reason to leave it: exited; its runner alive (pid, boot and start time: host-store.ts);
 * another revive holds its claim; a runner answers on its socket; its folder is gone. Under the
 * claim the record and the socket are asked again, since another revive may have finished
 * just before.
 */
export async function reviveSession(home: string, s: SessionView, time: Time): Promise<ReviveOutcome> {
  try {
    const first = await standing(home, s, time);
    if (first.not) return first.not;
    const claim = claimRevive(home, s.id, time.clock);
    if (!claim.ok) return { kind: 'running', session: first.view, why: `is being revived by another revive${claim.holder ? ` (pid ${claim.holder})` : ''}` };
    try {
      const { view, not } = await standing(home, s, time);
      if (not) return not;
      if (!fs.existsSync(view.cwd) || !fs.statSync(view.cwd).isDirectory()) {
        const how = view.worktree ? 'its worktree' : 'its folder';
        return { kind: 'failed', session: view, reason: `${how} ${view.cwd} is gone (rm it with: agent-board rm ${view.name})` };
      }
      return { kind: 'revived', session: view, ...(await relaunch(home, view, time)) };
    } finally {
      claim.release();
    }
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';
    const sandbox = err instanceof UserError && err.exitCode === EXIT.cannotSandbox ? { sandbox: true as const } : {};
    return { kind: 'failed', session: s, reason: err instanceof UserError ? reason.replace(/^session \S+ /, '') : reason, ...sandbox };
  }
}

/**
 * A new runner and program in place (restartSession: same id, name, room, folder, worktree,
 * kind; the conversation resumed where the kind can). restartSession ends a program the dead
 * runner left running in this boot, and tells the old runner by its boot and start time, so the
 * pids of a record from before a reboot, other processes' now, are never waited on or signalled.
 */
async function relaunch(home: string, view: SessionView, time: Time): Promise<Restarted> {
  return restartSession(home, { ...view, status: 'lost', runnerAlive: false }, time);
}

/**
 * Revives `sessions`, REVIVE_PARALLEL at a time; a failure of one never stops the others.
 * `onOutcome` hears each outcome in the order of `sessions`, as soon as it and those before
 * it are known (so lines print in order while later ones still start).
 */
export async function reviveSessions(home: string, sessions: readonly SessionView[], time: Time, onOutcome?: (o: ReviveOutcome) => void): Promise<ReviveOutcome[]> {
  const results: Promise<ReviveOutcome>[] = [];
  const running = new Set<Promise<unknown>>();
  // Told in order: each outcome once it and every one before it are known.
  let told: Promise<unknown> = Promise.resolve();
  for (const s of sessions) {
    while (running.size >= REVIVE_PARALLEL) await Promise.race(running);
    const p = reviveSession(home, s, time);
    const tracked: Promise<unknown> = p.then(() => running.delete(tracked));
    running.add(tracked);
    results.push(p);
    told = told.then(() => p).then((o) => onOutcome?.(o));
  }
  await told;
  return Promise.all(results);
}
