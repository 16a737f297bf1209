/**
 * The clock and timers a client operation runs on, handed down from the composition root (a CLI
 * command, the board's start) so tests drive them with FakeTime (test/helpers/fake-time.ts).
 */
import type { Clock, Scheduler } from '../core/clock.js';

export interface ClientTime {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
}

/** Resolves after `ms` on the scheduler. */
export function sleep(scheduler: Scheduler, ms: number): Promise<void> {
  return new Promise((resolve) => {
    scheduler.setTimeout(resolve, ms);
  });
}
