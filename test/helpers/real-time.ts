import type { ClientTime } from '../../src/client/client-time.js';
import { realClock, realScheduler } from '../../src/state/real-time.js';

/** The real clock and timers, for tests that run real runners (a composition root's, in a test). */
export const REAL_TIME: ClientTime = { clock: realClock, scheduler: realScheduler() };
