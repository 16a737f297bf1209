import type { Clock, Scheduler } from '../../src/core/clock.js';
import type { Disposable } from '../../src/core/lifetime.js';

interface Timer {
  at: number;
  every: number | null;
  fn: () => void;
}

/** A clock and scheduler that move only when told: `advance(ms)` runs every timer due, in order. */
export class FakeTime implements Clock, Scheduler {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  constructor(start = 1_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): Disposable {
    return this.add({ at: this.t + Math.max(0, ms), every: null, fn });
  }

  setInterval(fn: () => void, ms: number): Disposable {
    const every = Math.max(1, ms);
    return this.add({ at: this.t + every, every, fn });
  }

  /** Timers waiting to run. */
  get pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, Timer] | null = null;
      for (const e of this.timers) if (e[1].at <= end && (!next || e[1].at < next[1].at || (e[1].at === next[1].at && e[0] < next[0]))) next = e;
      if (!next) break;
      const [id, timer] = next;
      this.t = timer.at;
      if (timer.every === null) this.timers.delete(id);
      else timer.at += timer.every;
      timer.fn();
    }
    this.t = end;
  }

  private add(timer: Timer): Disposable {
    const id = ++this.seq;
    this.timers.set(id, timer);
    return { dispose: () => this.timers.delete(id) };
  }
}
