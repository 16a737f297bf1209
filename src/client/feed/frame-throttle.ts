/**
 * At most one call per interval, the first of a quiet spell at once (in a microtask, so the
 * requests of one callback are one call): how the board feed (src/client/feed/board-feed.ts) tells
 * its subscribers, so that a runner's push after a quiet spell is drawn without waiting for a
 * timer (Node's shortest is a millisecond and more), and a flood of pushes from many runners is
 * one draw per frame. The board draws in React's next task anyway (its scheduler), so pushes read
 * in the same turn of the event loop still land in one draw when their changes are in before it.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';

export class FrameThrottle implements Disposable {
  private readonly timer = new MutableDisposable();
  private last: number;
  /** A call is on its way (a microtask or the timer). */
  private pending = false;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    /** The least time between two calls (ms). */
    private readonly ms: number,
    private readonly fn: () => void,
  ) {
    // The start counts as a call: whoever listens reads the state as it is when they begin.
    this.last = clock.now();
  }

  /** Something changed: `fn` runs at once (a microtask) when it last ran `ms` ago or more, else `ms` after that. */
  request(): void {
    if (this.pending || this.disposed) return;
    this.pending = true;
    const wait = this.last + this.ms - this.clock.now();
    if (wait <= 0) {
      queueMicrotask(() => this.call());
      return;
    }
    this.timer.value = this.scheduler.setTimeout(() => {
      this.timer.clear();
      this.call();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    this.timer.dispose();
  }

  private call(): void {
    this.pending = false;
    if (this.disposed) return;
    this.last = this.clock.now();
    this.fn();
  }
}
