/**
 * How long the page waits before it tries the server again: half a second after the first loss
 * (a phone that changed networks is usually back at once), doubling up to ten seconds (a server
 * being restarted, or a laptop asleep, is not hammered, and the page is back within ten seconds of
 * the server).
 */

/** The first wait after a connection is lost or refused. */
export const FIRST_RETRY_MS = 500;
/** The longest wait between two tries. */
export const MAX_RETRY_MS = 10_000;

/** The wait before try number `attempt` (0: the first retry after a loss). */
export function retryDelay(attempt: number): number {
  if (attempt <= 0) return FIRST_RETRY_MS;
  // 2 ** 5 * 500 is already past the cap: no overflow for a page left retrying for days.
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 5));
}
