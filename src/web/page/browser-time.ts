/**
 * The browser's real clock and timers, made once by the page's composition root (main.tsx) and
 * handed down like everywhere else (src/core/clock.ts; eslint lets only this file of the page
 * read the real time).
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { toDisposable } from '../../core/lifetime.js';

export const browserClock: Clock = { now: () => Date.now() };

export const browserScheduler: Scheduler = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    return toDisposable(() => clearTimeout(t));
  },
  setInterval(fn, ms) {
    const t = setInterval(fn, ms);
    return toDisposable(() => clearInterval(t));
  },
};
