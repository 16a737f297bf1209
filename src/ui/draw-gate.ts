/**
 * When Ink draws a commit: at once after a quiet spell, else as soon as the hold after the last
 * draw is over, one draw for every commit that came meanwhile.
 *
 * Ink's own hold (its maxFps option) is es-toolkit's throttle, which is a debounce with a maxWait:
 * every commit inside the hold starts the hold again, so a commit that lands just after a draw (an
 * update a millisecond after the once-a-second age tick) waited a whole hold, 8 ms, on top of its
 * own draw: that was the board's one-row p99. This gate holds a draw back only until the last draw
 * is as far behind as it took (DRAW_HOLD_MIN_MS..DRAW_HOLD_MAX_MS), so drawing takes at most about
 * half of the CPU under any storm of commits, and a commit after a quiet spell is drawn in it.
 */
import type { Time } from '../core/clock.js';
import type { Disposable } from '../core/lifetime.js';

/**
 * The shortest hold: commits of one key or one resize that come in the same millisecond or so
 * (an effect's state update after the first commit) share a draw.
 */
export const DRAW_HOLD_MIN_MS = 1;
/**
 * The longest: half the feed's frame (src/client/board-feed-options.ts, 16 ms), so a slow draw
 * never holds the next frame of the feed back by a whole one.
 */
export const DRAW_HOLD_MAX_MS = 8;

export class DrawGate implements Disposable {
  /** When the last draw ended, and how long from then the next one waits. */
  private lastEnd = -Infinity;
  private hold = 0;
  private pending: Disposable | null = null;
  private disposed = false;

  constructor(
    private readonly time: Time,
    /** Ink's draw of its current tree. */
    private readonly draw: () => void,
  ) {}

  /** A commit: draw it now, or once the hold is over (one draw for all that came meanwhile). */
  readonly request = (): void => {
    if (this.disposed || this.pending) return;
    const wait = this.lastEnd + this.hold - this.time.clock.now();
    if (wait <= 0) this.run();
    else this.pending = this.time.scheduler.setTimeout(() => this.run(), wait);
  };

  /** Whether a draw is waiting for the hold to end. */
  get waiting(): boolean {
    return this.pending !== null;
  }

  dispose(): void {
    this.disposed = true;
    this.pending?.dispose();
    this.pending = null;
  }

  private run(): void {
    this.pending = null;
    if (this.disposed) return;
    const start = this.time.clock.now();
    this.draw();
    this.lastEnd = this.time.clock.now();
    this.hold = Math.min(DRAW_HOLD_MAX_MS, Math.max(DRAW_HOLD_MIN_MS, this.lastEnd - start));
  }
}
