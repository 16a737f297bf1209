/** The real clock and timers a CLI command hands down (each command is a composition root). */
import type { Time } from '../core/clock.js';
import { realClock, realScheduler } from '../state/real-time.js';

/** Referenced timers: a command waiting on one (a kill's deadline, a poll) stays alive for it. */
export function cliTime(): Time {
  return { clock: realClock, scheduler: realScheduler() };
}
