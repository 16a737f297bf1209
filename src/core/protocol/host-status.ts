import type { HostRecord, SessionStatus } from './host-record.js';

/** How often a runner rewrites its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/**
 * A runner silent for this long is taken as gone even if its pid answers: the
 * pid may have been reused by an unrelated process, or the runner is wedged.
 */
export const HEARTBEAT_STALE_MS = 4 * HEARTBEAT_INTERVAL_MS;

/**
 * What a reader knows of a session's runner process:
 * - `gone`: its pid is dead, or names another process now (another boot, another start time);
 * - `identified`: its pid is alive and is that runner (the record's boot id and start time match),
 *   so a stale heartbeat cannot be a reused pid: the runner runs, and either cannot write its
 *   record (a full disk) or does not answer (wedged). Only its socket can tell which;
 * - `pid`: its pid is alive and the record says nothing more (older records, not Linux): a stale
 *   heartbeat is taken as gone, as before the identity was recorded.
 */
export type RunnerLiveness = 'gone' | 'identified' | 'pid';

/** Whether the record's heartbeat is over HEARTBEAT_STALE_MS old at `nowMs` (one that cannot be read is not). */
export function heartbeatStale(host: Pick<HostRecord, 'heartbeatAt'>, nowMs: number): boolean {
  const beat = Date.parse(host.heartbeatAt);
  return Number.isFinite(beat) && nowMs - beat > HEARTBEAT_STALE_MS;
}

/**
 * The status a user should see. A runner that vanished is `lost`, never
 * `running`: host.json alone cannot tell, so the caller says whether the
 * runner is alive (`true` is `pid`: a stale heartbeat is lost). An
 * `identified` runner with a stale heartbeat keeps its status: the caller
 * asks it on its socket before calling it lost (src/client/session/silent-runners.ts).
 */
export function effectiveStatus(host: HostRecord, runner: boolean | RunnerLiveness, nowMs: number): SessionStatus {
  if (host.status === 'exited' || host.status === 'lost') return host.status;
  if (runner === false || runner === 'gone') return 'lost';
  if (runner !== 'identified' && heartbeatStale(host, nowMs)) return 'lost';
  return host.status;
}
