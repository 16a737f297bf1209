import {
  advanceRetry,
  createJiggleRetryState,
  feedOutput,
  nextRetryDelay,
  stopRetry,
  type JiggleRetryState,
} from '../core/terminal/jiggle-retry.js';

/** Timers, injectable so tests run the chain on fake time. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * The attach side of the jiggle chain: one jiggle when the stream goes live,
 * then again after each backoff step until the program's output shows its
 * settle marker, the steps run out, or the attach ends. It outlives the attach
 * settling on purpose (seed 000): a program that swallowed the first jiggles
 * while starting up still gets asked later.
 */
export class JiggleChain {
  private state: JiggleRetryState;
  private carry = '';
  private timer: unknown = null;

  constructor(
    private readonly markers: readonly string[],
    private readonly jiggle: () => void,
    private readonly scheduler: Scheduler = realScheduler,
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

  stop(): void {
    this.cancelTimer();
    this.state = stopRetry(this.state);
  }

  get settled(): boolean {
    return this.state.clearDetected;
  }

  get retries(): number {
    return this.state.retryIndex;
  }

  get running(): boolean {
    return this.timer !== null;
  }

  private schedule(): void {
    const delay = nextRetryDelay(this.state);
    if (delay === null) return;
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = null;
      if (nextRetryDelay(this.state) === null) return;
      this.jiggle();
      this.state = advanceRetry(this.state);
      this.schedule();
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.scheduler.clearTimeout(this.timer);
    this.timer = null;
  }
}
