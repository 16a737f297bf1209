/**
 * The sessions' records on disk (sessions/<id>/host.json): written whole or not at all, read
 * back checked, and seen as a user should see them (a session whose runner is gone is `lost`).
 * Also whether a record's process is still the session's runner (its pid alive, its boot and
 * start time), which is what `lost` turns on.
 */
import fs from 'node:fs';
import { effectiveStatus, heartbeatStale, type RunnerLiveness } from '../core/protocol/host-status.js';
import type { HostRecord, SessionStatus } from '../core/protocol/host-record.js';
import type { Clock } from '../core/clock.js';
import { hostFile, sessionsDir } from './paths.js';
import { isPidAlive, isZombie } from './process/alive.js';
import { bootId, processStartTime } from './proc-identity.js';
import { realClock } from './real-time.js';
import { writeFileAtomic } from './write-errors.js';

/**
 * Writes host.json so a reader sees the old file or the new one, never half:
 * write a temporary file, rename it over the old one (a failure removes it:
 * src/state/write-errors.ts). `durable` also fsyncs before the rename, so the
 * change survives a crash of the machine: worth it for status changes, not
 * for the heartbeat and activity stamps.
 */
export function writeHostFile(file: string, record: HostRecord, durable = true): void {
  // What a runner says of its own writes is never on disk (host-record.ts, cannotWrite).
  const { cannotWrite: _code, cannotWriteSince: _since, ...kept } = record;
  writeFileAtomic(file, JSON.stringify(kept, null, 2) + '\n', durable);
}

const STATUSES: ReadonlySet<string> = new Set<SessionStatus>(['starting', 'running', 'exited', 'lost']);

/** `value` if it looks like a host record (of session `id`, when given), else null. */
export function asHostRecord(value: unknown, id?: string): HostRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Partial<HostRecord>;
  const ok =
    typeof r.id === 'string' &&
    (id === undefined || r.id === id) &&
    typeof r.name === 'string' &&
    typeof r.command === 'string' &&
    Array.isArray(r.args) &&
    typeof r.createdAt === 'string' &&
    typeof r.status === 'string' &&
    STATUSES.has(r.status) &&
    Number.isFinite(r.cols) &&
    Number.isFinite(r.rows);
  return ok ? (r as HostRecord) : null;
}

/** A host.json, or null when it is missing, half-made or not a host record. */
export function readHostFile(file: string): HostRecord | null {
  try {
    return asHostRecord(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return null; // missing or half-made: the caller reads null as "no session (yet)"
  }
}

/** Whether a process is alive (a zombie counting as gone): src/state/process/alive.ts, here too for the records' readers. */
export { isPidAlive, isZombie };

/** This boot's id, read once: a process never outlives its boot. Null off Linux. */
let thisBoot: string | null | undefined;

/**
 * Whether the record's runner is alive: its pid is, and, where the record says who the runner
 * was (its boot and start time, written by runners since they record them), that pid is still
 * that process. After a reboot the pids start over, so a runner's pid often names another
 * process: that runner is gone all the same. Older records: the pid alone, as before.
 */
export function isRunnerAlive(record: Pick<HostRecord, 'runnerPid' | 'runnerBootId' | 'runnerStartTime'>): boolean {
  return runnerLiveness(record) !== 'gone';
}

/**
 * What isRunnerAlive says, and whether the pid was checked to be that very runner (`identified`:
 * the record has its boot id and start time, and they match): then a stale heartbeat is not a
 * reused pid, and only the runner's socket can say whether it is wedged or cannot write.
 */
export function runnerLiveness(record: Pick<HostRecord, 'runnerPid' | 'runnerBootId' | 'runnerStartTime'>): RunnerLiveness {
  if (!isPidAlive(record.runnerPid)) return 'gone';
  let checked = 0;
  if (record.runnerBootId !== undefined) {
    thisBoot ??= bootId();
    if (thisBoot !== null && thisBoot !== record.runnerBootId) return 'gone';
    if (thisBoot !== null) checked++;
  }
  if (record.runnerStartTime !== undefined) {
    const started = processStartTime(record.runnerPid!);
    // Null: /proc could not tell (gone meanwhile, or none): isPidAlive already said what it could.
    if (started !== null && started !== record.runnerStartTime) return 'gone';
    if (started !== null) checked++;
  }
  return checked === 2 ? 'identified' : 'pid';
}

/**
 * The pid of the program a runner that died left running (a runner killed outright, its
 * program not), or null: only in this boot, and only while the pid is still that program
 * (its start time, where the record has it). After a reboot the old pid names some other
 * process, which must never be signalled.
 */
export function leftoverProgram(record: Pick<HostRecord, 'childPid' | 'childStartTime' | 'runnerBootId'>): number | null {
  const pid = record.childPid;
  if (!pid || !isPidAlive(pid)) return null;
  thisBoot ??= bootId();
  if (record.runnerBootId !== undefined && thisBoot !== null && thisBoot !== record.runnerBootId) return null;
  if (record.childStartTime !== undefined && processStartTime(pid) !== record.childStartTime) return null;
  return pid;
}

/** A host record with the status a user should see (a vanished runner is `lost`). */
export interface SessionView extends HostRecord {
  runnerAlive: boolean;
  /**
   * Its runner runs (its pid, boot and start time) but host.json's heartbeat is over 20 s old:
   * it cannot write its record (a full disk) or it is wedged, which only its socket can tell
   * (askSilentRunners, src/client/session/silent-runners.ts, puts what it answers in the view). Until
   * then the view keeps the recorded status: a session is never called lost on this alone.
   */
  heartbeatStale?: true;
  /** The machine it runs on, for a row of the board's --host (absent: this one); `id` is then `host/id`. */
  host?: string;
  /** Its id on that machine (set with `host`). */
  remoteId?: string;
  /** Its machine cannot be reached now: what the row shows is as last seen. */
  stale?: boolean;
}

/** The record as a user should see it at `nowMs` (a runner whose heartbeat is that old is gone, unless identified: see heartbeatStale). */
export function viewOf(record: HostRecord, nowMs: number): SessionView {
  const runner = runnerLiveness(record);
  const status = effectiveStatus(record, runner, nowMs);
  const silent = runner === 'identified' && (status === 'running' || status === 'starting') && heartbeatStale(record, nowMs);
  return { ...record, runnerAlive: runner !== 'gone', status, ...(silent ? { heartbeatStale: true as const } : {}) };
}

/**
 * Every session in the home, oldest first, as seen at `clock.now()`. The real clock unless given:
 * the callers are one-shot commands and the client's helpers under them (resolving a name,
 * checking one is free), which read the sessions once and have no other clock.
 */
export function listSessions(home: string, clock: Clock = realClock): SessionView[] {
  const now = clock.now();
  return readAllRecords(home)
    .map((rec) => viewOf(rec, now))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Every session's record as its host.json says, unordered, without asking whether its runner lives (a runner's budgets: a third of listSessions' cost). */
export function readAllRecords(home: string): HostRecord[] {
  let ids: string[];
  try {
    ids = fs.readdirSync(sessionsDir(home));
  } catch {
    return []; // no sessions folder yet: no session was ever made here
  }
  const out: HostRecord[] = [];
  for (const id of ids) {
    const rec = readHostFile(hostFile(home, id));
    if (rec && rec.id === id) out.push(rec);
  }
  return out;
}
