/** Waiting on the scheduler a client operation was handed (its `Time`, src/core/clock.ts). */
import type { Scheduler } from '../../core/clock.js';

/** Resolves after `ms` on the scheduler. */
export function sleep(scheduler: Scheduler, ms: number): Promise<void> {
  return new Promise((resolve) => {
    scheduler.setTimeout(resolve, ms);
  });
}
