import type { Clock, Scheduler } from '../core/clock.js';

/** The real clock and timers, handed to the runner's stateful classes by its composition root. */
export const realClock: Clock = { now: () => Date.now() };
export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
