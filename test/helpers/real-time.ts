import type { Time } from '../../src/core/clock.js';
import { realClock, realScheduler } from '../../src/state/real-time.js';

/** The real clock and timers, for tests that run real runners (a composition root's, in a test). */
export const REAL_TIME: Time = { clock: realClock, scheduler: realScheduler() };
