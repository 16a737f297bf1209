/**
 * How long a RunnerLink (./runner-link.ts) waits before each try at a line that failed, and when it
 * stops. Every link's schedule is here, side by side: each starts fast, since the common failure
 * is a blip (a runner restarting, a socket cut) that is over within a few hundred ms, and backs
 * off from there, so a runner that is gone costs a few tries and then nothing.
 */

export interface RetrySchedule {
  /** The wait before each try after a failure, in order: the first after the first failure. */
  readonly delaysMs: readonly number[];
  /**
   * Past the last delay: `give-up` stops trying until the link is asked again (its owner knows
   * when there is news: host.json changed, the session was selected again), `repeat` waits the
   * last delay again, for ever (a cap: the line's promise, "retrying in 10 s", stays true).
   */
  readonly afterLast: 'give-up' | 'repeat';
}

/** The wait before the try after `failures` failures in a row (1: the first), or undefined: give up. */
export function retryDelay(s: RetrySchedule, failures: number): number | undefined {
  const n = s.delaysMs.length;
  if (n === 0) return undefined;
  const i = Math.max(failures, 1) - 1;
  if (i < n) return s.delaysMs[i];
  return s.afterLast === 'repeat' ? s.delaysMs[n - 1] : undefined;
}

/**
 * The board's status link to each running session: a runner that refused is usually one starting
 * or restarting (up within a second or two), so five tries over about 3 s, then nothing until
 * host.json changes or the feed's sweep, which each ask again (a hundred sessions must not poll).
 */
export const STATUS_RETRY: RetrySchedule = { delaysMs: [100, 200, 400, 800, 1600], afterLast: 'give-up' };

/**
 * The board's preview of the selected session: three tries within 1.4 s; a runner still gone by
 * then has ended or is lost, and the feed switches the preview to the final screen.
 */
export const PREVIEW_RETRY: RetrySchedule = { delaysMs: [100, 300, 1000], afterLast: 'give-up' };

/**
 * An attach whose connection dropped without an `exit`: five tries over about 4 s (a runner
 * blip, a restart), then the attach ends as `lost` and says how to revive. The runner keeps a
 * leaving attach's size for as long (src/runner/size-policy.ts), so a blip resizes nothing.
 */
export const ATTACH_RECONNECT: RetrySchedule = { delaysMs: [100, 250, 500, 1000, 2000], afterLast: 'give-up' };

/**
 * Another machine's feed over ssh (the board's --host): a dropped link comes back at once, a host
 * that is down is asked every 10 s at most, for as long as the board runs; each try costs an ssh
 * handshake, so this starts slower than the local links.
 */
export const HOST_RECONNECT: RetrySchedule = { delaysMs: [1000, 2000, 5000, 10_000], afterLast: 'repeat' };
