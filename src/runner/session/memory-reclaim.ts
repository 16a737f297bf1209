/**
 * Gives back the memory a burst of output grew, once the session is quiet again. V8 grows its
 * young generation during a burst (a `cat`, a build log, an agent's long answer: up to 16 MiB,
 * its semi-spaces at their largest) and keeps it at that size while the process is idle: an idle
 * runner that had printed 2 MiB held about 15 MiB more than a fresh one (bench/rss.mjs, "after a
 * burst"). A full collection shrinks the young generation only when V8 sees the allocation rate
 * low, which it measures between collections: so two, RECLAIM_GAP_MS apart. V8's own memory
 * reducer would do this, but it starts only after an old-generation collection, which a burst
 * of short-lived strings never needs. V8 judges the rate over the last few seconds, so a pair
 * can come too early (the model still catching up on a loaded machine) and shrink nothing: then
 * the runner tries again after another quiet spell, up to RECLAIM_TRIES pairs.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { Logger } from '../log.js';

/** How long the program must have been quiet: past the activity tracker's idle (2 s), so a turn's end is settled first. */
export const RECLAIM_QUIET_MS = 5000;
/** Between the two collections: long enough for V8 to measure a low allocation rate (back to back, it shrinks nothing). */
export const RECLAIM_GAP_MS = 1000;
/**
 * Only a heap this big is worth two full collections (a few ms each): a fresh runner's V8 heap
 * is about 10 MiB, and a burst takes the young generation alone to 16 MiB.
 */
export const RECLAIM_HEAP_BYTES = 16 * 1024 * 1024;
/** Pairs of collections tried per quiet spell while the heap stays over RECLAIM_HEAP_BYTES (bench/rss.mjs saw one pair in about five shrink nothing). */
export const RECLAIM_TRIES = 3;

export interface ReclaimDeps {
  clock: Clock;
  scheduler: Scheduler;
  /** When the program last printed (ms since the epoch; -Infinity: never). */
  lastOutputAt(): number;
  /** V8's heap as committed now (process.memoryUsage().heapTotal). */
  heapBytes(): number;
  /** One full collection (the runner starts with --expose-gc). */
  collect(): void;
  log: Logger;
}

export class MemoryReclaim implements Disposable {
  private readonly timer = new MutableDisposable();
  private armed = false;
  /** Pairs tried in this quiet spell. */
  private tries = 0;

  constructor(private readonly d: ReclaimDeps) {}

  /** The program printed: once it has been quiet for RECLAIM_QUIET_MS, look. Cheap per chunk: one timer per quiet spell. */
  output(): void {
    this.tries = 0;
    if (this.armed) return;
    this.armed = true;
    this.wait(RECLAIM_QUIET_MS);
  }

  dispose(): void {
    this.timer.dispose();
  }

  private wait(ms: number): void {
    this.timer.value = this.d.scheduler.setTimeout(() => this.check(), ms);
  }

  private check(): void {
    const quiet = this.d.clock.now() - this.d.lastOutputAt();
    if (quiet < RECLAIM_QUIET_MS) return this.wait(RECLAIM_QUIET_MS - quiet); // it printed since: wait on
    const before = this.d.heapBytes();
    if (before <= RECLAIM_HEAP_BYTES) return this.disarm();
    this.tries++;
    this.d.collect();
    this.timer.value = this.d.scheduler.setTimeout(() => {
      this.d.collect();
      const after = this.d.heapBytes();
      const again = after > RECLAIM_HEAP_BYTES && this.tries < RECLAIM_TRIES;
      this.d.log(`quiet after a burst: V8 heap ${mib(before)} -> ${mib(after)} MiB${again ? `; trying again in ${RECLAIM_QUIET_MS / 1000} s` : ''}`);
      if (again) this.wait(RECLAIM_QUIET_MS);
      else this.disarm();
    }, RECLAIM_GAP_MS);
  }

  private disarm(): void {
    this.armed = false;
    this.tries = 0;
  }
}

const mib = (n: number) => (n / 1048576).toFixed(1);
