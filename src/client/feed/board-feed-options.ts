/** What a board feed can be tuned by, and the defaults that keep 100 idle sessions cheap. */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { TermSize } from '../../core/protocol/size.js';
import { STATUS_RETRY } from '../link/retry-schedule.js';

/**
 * One frame of a 60 Hz screen: a change the feed hears reaches its subscribers at once when
 * the last notification is a frame old, else when it is (so the board draws at most once per
 * frame, however many runners push). The board's Ink throttle is shorter (src/ui/ink/options.ts).
 */
export const FRAME_MS = 16;

export interface BoardFeedOptions {
  /** Ages heartbeats and stamps views. */
  clock: Clock;
  /** Every timer of the feed, its status links and its preview. */
  scheduler: Scheduler;
  /** Subscribers hear of changes at most this often (ms): at once after a quiet spell, else this long after the last time. */
  notifyMs?: number;
  /** A change in the sessions folder is looked at after this quiet time (ms). */
  rescanMs?: number;
  /** A folder with no host.json yet (`new` is writing it) is looked at again after this (ms)... */
  pendingRetryMs?: number;
  /** ...this many times. */
  pendingTries?: number;
  /** Delays between attempts to reach a runner that refused, then wait for host.json to change (default STATUS_RETRY's). */
  retryMs?: readonly number[];
  /**
   * One timer for the whole feed (never one per session): ages heartbeats
   * (a wedged runner turns `lost`) and retries what events could not. 0: off.
   */
  sweepMs?: number;
  /**
   * The board's terminal size, offered to every runner it watches: when an attach that sized a
   * session leaves, the session takes the largest view offered (src/runner/clients/size-policy.ts).
   * None (a feed without a terminal: `feed --json`): the session goes back to its size from before.
   */
  viewSize?: TermSize;
}

export type FeedTuning = Required<Omit<BoardFeedOptions, 'clock' | 'scheduler' | 'viewSize'>>;

export function feedTuning(options: BoardFeedOptions): FeedTuning {
  return {
    notifyMs: options.notifyMs ?? FRAME_MS,
    rescanMs: options.rescanMs ?? 50,
    pendingRetryMs: options.pendingRetryMs ?? 50,
    pendingTries: options.pendingTries ?? 20,
    retryMs: options.retryMs ?? STATUS_RETRY.delaysMs,
    sweepMs: options.sweepMs ?? 5000,
  };
}
