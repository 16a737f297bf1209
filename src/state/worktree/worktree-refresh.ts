import type { Clock, Scheduler } from '../../core/clock.js';
import { MutableDisposable } from '../../core/lifetime.js';
import type { WorktreeStats } from '../../core/worktree/worktree.js';

/**
 * A change is counted this long after it: what changes in that second (a
 * commit writes a dozen files, an agent edits a few) is one count.
 */
export const WORKTREE_SETTLE_MS = 1000;
/**
 * Never two counts closer than this: an agent writing all the time costs a
 * count every second or two. With the settle time it bounds how stale a
 * count can be: a change is counted by a count that starts at most this long
 * after it (after the one running then, if one was), inside the 2 s a user
 * may wait (docs/worktrees.md).
 */
export const WORKTREE_MIN_INTERVAL_MS = 1000;

export interface RefreshDeps {
  compute(): Promise<WorktreeStats>;
  /** Called with every count that differs from the last one written (its `at` aside). */
  write(stats: WorktreeStats): void;
  clock: Clock;
  scheduler: Scheduler;
  settleMs?: number;
  minIntervalMs?: number;
}

function sameCounts(a: WorktreeStats | null, b: WorktreeStats): boolean {
  if (!a) return false;
  const { at: _a, ...x } = a;
  const { at: _b, ...y } = b;
  return JSON.stringify(x) === JSON.stringify(y);
}

/**
 * When a worktree's counts are taken again: as soon as the minimum interval
 * allows when asked (a session started, a turn ended), the settle time after
 * a change, never more often than the minimum interval, and never two at a
 * time (a change during a count makes one more after it, its settle time
 * counted from the change). What a count looks at is the caller's business
 * (`compute`). Time comes from the injected clock.
 */
export class WorktreeRefresher {
  private readonly timer = new MutableDisposable();
  private dueAt = Number.POSITIVE_INFINITY;
  private running = false;
  /** A change (or a request) came during the running count: the earliest time the next may start. */
  private again: number | null = null;
  private lastRunAt = Number.NEGATIVE_INFINITY;
  private last: WorktreeStats | null = null;
  private disposed = false;
  /** Counts taken so far (for tests and the bench). */
  runs = 0;

  constructor(private readonly d: RefreshDeps) {}

  /** Count as soon as the minimum interval allows (the session started, a turn ended). */
  now(): void {
    this.request(this.d.clock.now());
  }

  /** Something the count reads changed: count after the settle time. */
  changed(): void {
    this.request(this.d.clock.now() + (this.d.settleMs ?? WORKTREE_SETTLE_MS));
  }

  dispose(): void {
    this.disposed = true;
    this.timer.dispose();
  }

  /** Count at `earliest`, or as soon after it as the minimum interval allows. */
  private request(earliest: number): void {
    if (this.disposed) return;
    if (this.running) {
      this.again = Math.min(this.again ?? earliest, earliest);
      return;
    }
    const now = this.d.clock.now();
    const at = Math.max(earliest, now, this.lastRunAt + (this.d.minIntervalMs ?? WORKTREE_MIN_INTERVAL_MS));
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
      const again = this.again;
      this.again = null;
      if (again !== null) this.request(again);
    }
  }
}
