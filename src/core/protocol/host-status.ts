import type { HostRecord, SessionStatus } from './protocol.js';

/** How often a runner rewrites its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/**
 * A runner silent for this long is taken as gone even if its pid answers: the
 * pid may have been reused by an unrelated process, or the runner is wedged.
 */
export const HEARTBEAT_STALE_MS = 4 * HEARTBEAT_INTERVAL_MS;

/**
 * The status a user should see. A runner that vanished is `lost`, never
 * `running`: host.json alone cannot tell, so the caller says whether the
 * runner's pid is alive.
 */
export function effectiveStatus(host: HostRecord, runnerAlive: boolean, nowMs: number): SessionStatus {
  if (host.status === 'exited' || host.status === 'lost') return host.status;
  if (!runnerAlive) return 'lost';
  const beat = Date.parse(host.heartbeatAt);
  if (Number.isFinite(beat) && nowMs - beat > HEARTBEAT_STALE_MS) return 'lost';
  return host.status;
}
