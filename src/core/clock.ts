/**
 * Time, injected: every stateful class that waits or stamps takes a Clock and
 * a Scheduler, so tests drive it with a fake one (test/helpers/fake-clock.ts)
 * and only the composition roots (the runner's main, the CLI commands, the
 * board's start) hand over the real ones (src/runner/real-time.ts).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface Disposable {
  dispose(): void;
}
