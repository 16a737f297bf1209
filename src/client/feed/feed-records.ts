import fs from 'node:fs';
import { effectiveStatus } from '../../core/protocol/host-status.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { asHostRecord, isZombie, viewOf, type SessionView } from '../../state/host-store.js';
import { hostFile } from '../../state/paths.js';
import { RUNNER_START_TIMEOUT_MS } from '../session/runner-start.js';

/**
 * Host records as the board feed takes them in: checked, since a bad
 * host.json or a runner bug must not break the board, and compared by what a
 * user can see, so the 5 s heartbeat of a hundred runners wakes nobody up.
 */

/** The session's host.json, or null when it is missing, half-made or not a record of this id. */
export function readRecord(home: string, id: string): HostRecord | null {
  try {
    return asHostRecord(JSON.parse(fs.readFileSync(hostFile(home, id), 'utf8')), id);
  } catch {
    return null;
  }
}

/**
 * What a user should see. Like viewOf, except that a session `new` just made
 * (host.json written, runner not up yet, so no runner pid) shows as
 * `starting` rather than `lost` for as long as `new` itself would wait.
 * `link`: the feed's line to the runner. While it is open the runner is
 * alive, and the record is what it pushed: its pushes are its heartbeat
 * (one that cannot write host.json pushes each heartbeat instead), so a
 * stale one means wedged. Without it, a runner that runs with a stale
 * heartbeat on disk (viewOf's heartbeatStale) keeps its status until the
 * link has tried it: `unanswered` (it does not answer either) is lost.
 */
export function feedView(record: HostRecord, nowMs: number, link?: { open: boolean; unanswered: boolean }): SessionView {
  // A runner we are connected to is alive: no need to ask the kernel.
  const open = link?.open === true;
  let view: SessionView = open ? { ...record, runnerAlive: true, status: effectiveStatus(record, true, nowMs) } : viewOf(record, nowMs);
  if (!open && view.runnerAlive && isZombie(record.runnerPid)) {
    const { heartbeatStale: _stale, ...rest } = view;
    view = { ...rest, runnerAlive: false, status: effectiveStatus(record, false, nowMs) };
  }
  if (view.heartbeatStale && link?.unanswered) view = { ...view, status: 'lost' };
  if (view.status === 'lost' && record.status === 'starting' && record.runnerPid === null) {
    const age = nowMs - Date.parse(record.createdAt);
    if (age >= -1000 && age < RUNNER_START_TIMEOUT_MS) return { ...view, status: 'starting' };
  }
  return view;
}

/**
 * Whether two records (or views) look the same to a user: every field but
 * the heartbeat stamps, which change every 5 s and mean nothing on screen.
 * On the path of every status push, so no allocation.
 */
export function sameButHeartbeat(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    n++;
    if (k === 'heartbeatAt' || k === 'updatedAt') continue;
    const u = x[k];
    const v = y[k];
    if (u === v) continue;
    if (!Array.isArray(u) || !Array.isArray(v) || u.length !== v.length) return false;
    for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
  }
  for (const _k in y) n--;
  return n === 0;
}

export function byAge(a: SessionView, b: SessionView): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}
