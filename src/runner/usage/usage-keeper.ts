/**
 * A session's usage kept fresh in its host.json (docs/usage.md): its transcript read when the
 * runner starts, when a turn ends (the activity leaves busy), and every BUSY_READ_MS while it
 * stays busy; only what the file grew by is read (src/state/usage/transcript-tail.ts), and the
 * record is written only when the figures changed.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { DisposableStore, MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { PriceTable } from '../../core/usage/prices.js';
import { UsageSum } from '../../core/usage/usage-sum.js';
import type { SessionUsage } from '../../core/usage/usage-types.js';
import { TranscriptTail } from '../../state/usage/transcript-tail.js';
import type { UsageSource } from '../../state/usage/usage-source.js';

/**
 * While a turn runs, the transcript is read this often: a long turn's figures move on the board
 * without a read per message (the turn's end reads at once anyway). 50 sessions busy at once
 * cost 50 small reads every 15 s (bench/usage.mjs).
 */
export const BUSY_READ_MS = 15_000;
/**
 * After a turn's end the transcript is read again this long after it (ms from the end): an agent
 * may write its last message after it says it is done (Claude Code writes it after its Stop hook,
 * up to a few seconds later under load), and the figures must not wait for the next turn.
 */
export const AFTER_TURN_READS_MS: readonly number[] = [2_000, 10_000];

export interface UsageKeeperDeps {
  /** Where the transcript is now (the conversation id can be learned late), or null when unknown. */
  locate(): UsageSource | null;
  /** The activity tracker's changes: a turn's end is the activity leaving `busy`. */
  onActivity(fn: (activity: string) => void): Disposable;
  write(usage: SessionUsage): void;
  log(line: string): void;
  prices: PriceTable;
  clock: Clock;
  scheduler: Scheduler;
}

export class UsageKeeper implements Disposable {
  private readonly store = new DisposableStore();
  private readonly busyTimer = this.store.add(new MutableDisposable());
  private readonly afterTurn = this.store.add(new MutableDisposable());
  private tail: TranscriptTail | null = null;
  private sum: UsageSum;
  private lastWritten = '';
  private lastError = '';
  private busy = false;

  constructor(private readonly d: UsageKeeperDeps) {
    this.sum = new UsageSum(d.prices);
    this.store.add(
      d.onActivity((a) => {
        const wasBusy = this.busy;
        this.busy = a === 'busy';
        if (this.busy && !wasBusy) {
          this.afterTurn.clear();
          this.busyTimer.value = d.scheduler.setInterval(() => this.read(false), BUSY_READ_MS);
        } else if (!this.busy && wasBusy) {
          this.busyTimer.clear();
          this.read(true);
          this.readAfterTurn(0, 0);
        }
      }),
    );
  }

  /** The reads of AFTER_TURN_READS_MS, one after the other, from the `k`th (`at`: ms after the turn's end so far). */
  private readAfterTurn(k: number, at: number): void {
    const next = AFTER_TURN_READS_MS[k];
    if (next === undefined) return this.afterTurn.clear();
    this.afterTurn.value = this.d.scheduler.setTimeout(() => {
      this.read(false);
      this.readAfterTurn(k + 1, next);
    }, next - at);
  }

  /**
   * Reads what the transcript grew by and writes the figures if they changed. `relocate` looks for
   * the file again first (at start and at a turn's end: a resumed or new conversation has a new one).
   */
  read(relocate = true): void {
    if (relocate || !this.tail) {
      const source = this.d.locate();
      if (!source) return;
      if (!this.tail || this.tail.file !== source.file) {
        if (this.tail) this.d.log(`usage: now reading ${source.file} (was ${this.tail.file})`);
        this.tail = new TranscriptTail(source.file, source.reader);
        this.sum = new UsageSum(this.d.prices);
      }
    }
    const tail = this.tail;
    if (!tail) return;
    const r = tail.read();
    if (r.error) {
      // Said once per file and reason (a transcript not written yet is ENOENT until its first message).
      const said = `${tail.file}:${r.error}`;
      if (said !== this.lastError) this.d.log(`usage: cannot read ${tail.file} (${r.error})`);
      this.lastError = said;
      return;
    }
    this.lastError = '';
    if (r.restarted) this.sum = new UsageSum(this.d.prices);
    this.sum.addAll(r.entries);
    if (r.firstSkip) this.d.log(`usage: ${tail.file}: a line could not be read and is skipped (counted in usage.skipped; ${r.firstSkip})`);
    const figures = { ...this.sum.totals(), file: tail.file, skipped: r.skipped };
    const key = JSON.stringify(figures);
    if (key === this.lastWritten) return;
    this.lastWritten = key;
    this.d.write({ ...figures, updatedAt: new Date(this.d.clock.now()).toISOString() });
  }

  dispose(): void {
    this.store.dispose();
  }
}
