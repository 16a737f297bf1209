/**
 * Time, injected: every stateful class that waits or stamps takes a Clock and a Scheduler, so
 * tests drive it with a fake one (test/helpers/fake-time.ts) and only the composition roots (the
 * runner's main, the CLI commands, the board's start) hand over the real ones
 * (src/state/real-time.ts). A timer is a Disposable like every other resource (./lifetime.ts):
 * its owner registers it and `dispose()` cancels it, a no-op once it ran.
 */
import type { Disposable } from './lifetime.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Scheduler {
  /** Runs `fn` once, `ms` from now. */
  setTimeout(fn: () => void, ms: number): Disposable;
  /** Runs `fn` every `ms` until disposed. */
  setInterval(fn: () => void, ms: number): Disposable;
}

/** Both, as a composition root hands them down (a lock's deadline and sleeps, a client operation's waits). */
export interface Time {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
}
