/**
 * At most one call per interval, the first of a quiet spell at the next turn of the event loop:
 * how the board feed (src/client/board-feed.ts) tells its subscribers, so that the pushes of one
 * read (from many runners) come as one draw and a flood of them as one draw per frame.
 */
import type { Clock, Scheduler } from '../core/clock.js';
import { MutableDisposable, type Disposable } from '../core/lifetime.js';

export class FrameThrottle implements Disposable {
  private readonly timer = new MutableDisposable();
  private last: number;
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

  /** Something changed: `fn` runs at once when it last ran `ms` ago or more (at the next timer), else `ms` after that. */
  request(): void {
    if (this.timer.value || this.disposed) return;
    const wait = Math.max(0, this.last + this.ms - this.clock.now());
    this.timer.value = this.scheduler.setTimeout(() => {
      this.timer.clear();
      if (this.disposed) return;
      this.last = this.clock.now();
      this.fn();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    this.timer.dispose();
  }
}
