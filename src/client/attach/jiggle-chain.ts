import {
  advanceRetry,
  createJiggleRetryState,
  feedOutput,
  nextRetryDelay,
  stopRetry,
  type JiggleRetryState,
} from '../../core/terminal/jiggle-retry.js';
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable } from '../../core/lifetime.js';

/**
 * The attach side of the jiggle chain: one jiggle when the stream goes live,
 * then again after each backoff step until the program's output shows its
 * settle marker, the steps run out, or the attach ends. It outlives the attach
 * settling on purpose: a program that swallowed the first jiggles
 * while starting up still gets asked later.
 */
export class JiggleChain {
  private state: JiggleRetryState;
  private carry = '';
  private readonly timer = new MutableDisposable();

  constructor(
    private readonly markers: readonly string[],
    private readonly jiggle: () => void,
    private readonly scheduler: Scheduler,
  ) {
    this.state = stopRetry(createJiggleRetryState(markers));
  }

  /** Starts (or restarts, after a reconnect) the chain with an initial jiggle. */
  start(): void {
    this.cancelTimer();
    this.state = createJiggleRetryState(this.markers);
    this.carry = '';
    this.jiggle();
    this.schedule();
  }

  /** Every chunk of live output goes through here. */
  feed(data: string): void {
    if (this.state.stopped || this.state.clearDetected) return;
    const r = feedOutput(this.state, data, this.carry);
    this.state = r.state;
    this.carry = r.carry;
    if (r.clearFound) this.cancelTimer();
  }

  /** No more jiggles until the next `start()`. */
  stop(): void {
    this.cancelTimer();
    this.state = stopRetry(this.state);
  }

  dispose(): void {
    this.stop();
  }

  get settled(): boolean {
    return this.state.clearDetected;
  }

  get retries(): number {
    return this.state.retryIndex;
  }

  get running(): boolean {
    return this.timer.value !== undefined;
  }

  private schedule(): void {
    const delay = nextRetryDelay(this.state);
    if (delay === null) return;
    this.timer.value = this.scheduler.setTimeout(() => {
      this.timer.clear();
      if (nextRetryDelay(this.state) === null) return;
      this.jiggle();
      this.state = advanceRetry(this.state);
      this.schedule();
    }, delay);
  }

  private cancelTimer(): void {
    this.timer.clear();
  }
}
