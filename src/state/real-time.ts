/**
 * The real clock and timers, made once by each composition root (the runner's main, a CLI
 * command, the board's start) and handed down. With `unref`, a pending timer does not keep the
 * process alive: for heartbeats and polls that must not hold a finished command open.
 */
import type { Clock, Scheduler } from '../core/clock.js';
import type { Disposable } from '../core/lifetime.js';

export const realClock: Clock = { now: () => Date.now() };

export function realScheduler(opts: { unref?: boolean } = {}): Scheduler {
  const hold = (t: NodeJS.Timeout): NodeJS.Timeout => (opts.unref ? t.unref() : t);
  return {
    setTimeout(fn, ms): Disposable {
      const t = hold(setTimeout(fn, ms));
      return { dispose: () => clearTimeout(t) };
    },
    setInterval(fn, ms): Disposable {
      const t = hold(setInterval(fn, ms));
      return { dispose: () => clearInterval(t) };
    },
  };
}
