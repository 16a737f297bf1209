import type { Clock, Scheduler } from '../core/clock.js';
import { MutableDisposable } from '../core/lifetime.js';
import type { WorktreeStats } from '../core/worktree/worktree.js';

/** A burst of file changes is counted this long after its first change. */
export const WORKTREE_DEBOUNCE_MS = 2000;
/** Never two counts closer than this: an agent writing all the time costs one git round a few seconds. */
export const WORKTREE_MIN_INTERVAL_MS = 5000;

export interface RefreshDeps {
  compute(): Promise<WorktreeStats>;
  /** Called with every count that differs from the last one written (its `at` aside). */
  write(stats: WorktreeStats): void;
  clock: Clock;
  scheduler: Scheduler;
  debounceMs?: number;
  minIntervalMs?: number;
}

function sameCounts(a: WorktreeStats | null, b: WorktreeStats): boolean {
  if (!a) return false;
  const { at: _a, ...x } = a;
  const { at: _b, ...y } = b;
  return JSON.stringify(x) === JSON.stringify(y);
}

/**
 * When a worktree session's counts are taken again: at once when asked
 * (start, a turn's end), a debounce after a file change, never more often
 * than the minimum interval, and never two at a time (a request during a
 * count makes one more after it). Time comes from the injected clock.
 */
export class WorktreeRefresher {
  private readonly timer = new MutableDisposable();
  private dueAt = Number.POSITIVE_INFINITY;
  private running = false;
  private again = false;
  private lastRunAt = Number.NEGATIVE_INFINITY;
  private last: WorktreeStats | null = null;
  private disposed = false;
  /** Counts taken so far (for tests and the bench). */
  runs = 0;

  constructor(private readonly d: RefreshDeps) {}

  /** Count as soon as the minimum interval allows (the session started, a turn ended). */
  now(): void {
    this.request(0);
  }

  /** Something in the worktree changed: count after the debounce. */
  changed(): void {
    this.request(this.d.debounceMs ?? WORKTREE_DEBOUNCE_MS);
  }

  /** Whether the last count found the folder gone (the watchers have nothing left to watch). */
  get missing(): boolean {
    return this.last?.missing === true;
  }

  dispose(): void {
    this.disposed = true;
    this.timer.dispose();
  }

  private request(delayMs: number): void {
    if (this.disposed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const now = this.d.clock.now();
    const at = Math.max(now + delayMs, this.lastRunAt + (this.d.minIntervalMs ?? WORKTREE_MIN_INTERVAL_MS));
    if (this.timer.value && this.dueAt <= at) return; // already due as soon
    this.dueAt = at;
    this.timer.value = this.d.scheduler.setTimeout(() => void this.run(), at - now);
  }

  private async run(): Promise<void> {
    this.timer.clear();
    this.dueAt = Number.POSITIVE_INFINITY;
    this.running = true;
    this.lastRunAt = this.d.clock.now();
    this.runs++;
    try {
      const stats = await this.d.compute();
      if (!this.disposed && !sameCounts(this.last, stats)) {
        this.last = stats;
        this.d.write(stats);
      }
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    }
  }
}
