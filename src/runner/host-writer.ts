/**
 * The runner's owner of host.json: the record in memory, atomic rewrites (at once for status
 * changes, coalesced for the rest) and the heartbeat.
 */
import type { Clock, Scheduler } from '../core/clock.js';
import { HEARTBEAT_INTERVAL_MS } from '../core/protocol/host-status.js';
import { DisposableStore, Emitter, MutableDisposable, type Event } from '../core/lifetime.js';
import type { HostRecord } from '../core/protocol/protocol.js';
import { writeHostFile } from '../state/host-store.js';
import { isoTime } from '../core/iso-time.js';

/** Resizes and output come in bursts; host.json is rewritten at most this often for them. */
export const HOST_WRITE_COALESCE_MS = 250;

export interface HostWriterDeps {
  file: string;
  record: HostRecord;
  clock: Clock;
  scheduler: Scheduler;
  /** A write failed (a full disk): the session goes on, the log says so. */
  onError: (err: Error) => void;
  /** Fields computed at write time (the screen's last line), so they cost nothing per output chunk. */
  decorate?: () => Partial<HostRecord>;
}

export class HostWriter {
  record: HostRecord;
  private readonly store = new DisposableStore();
  private readonly timer = this.store.add(new MutableDisposable());
  private readonly heartbeat = this.store.add(new MutableDisposable());
  private readonly written = this.store.add(new Emitter<HostRecord>());
  private outputSeen = false;
  /** Output came while a write was pending: one more write follows, so the preview shows the last screen. */
  private trailing = false;

  /** After each write that a watcher should see, with the record as written: status pushes hang off it. */
  readonly onWrite: Event<HostRecord> = this.written.event;

  constructor(private readonly d: HostWriterDeps) {
    this.record = d.record;
  }

  startHeartbeat(): void {
    this.heartbeat.value = this.d.scheduler.setInterval(() => this.flush(false, true), HEARTBEAT_INTERVAL_MS);
  }

  /**
   * Merge `patch` into the record. `now` (status changes) writes at once, and
   * fsyncs when `durable`; anything else is written within HOST_WRITE_COALESCE_MS.
   */
  update(patch: Partial<HostRecord>, now = false, durable = now): void {
    this.record = { ...this.record, ...patch, revision: (this.record.revision ?? 0) + 1 };
    if (now) {
      this.flush(durable);
      return;
    }
    if (!this.timer.value) this.arm(() => this.flush(false));
  }

  /** The program printed: cheap enough for every output chunk (the time is stamped at the next write). */
  noteOutput(): void {
    this.outputSeen = true;
    if (this.timer.value) {
      // Output after the write was scheduled may not be parsed when it happens: write once more after it.
      this.trailing = true;
      return;
    }
    this.arm(() => this.flush(false));
  }

  /** `heartbeatOnly`: nothing a user can see changed, so watchers are not woken (100 idle sessions must cost the board nothing). */
  flush(durable = false, heartbeatOnly = false): void {
    if (this.store.isDisposed) return;
    // A change waiting for its coalesced write goes out with this one: then it is not heartbeat-only.
    heartbeatOnly &&= !this.outputSeen && this.timer.value === undefined;
    this.timer.clear();
    if (this.trailing && !heartbeatOnly) {
      this.trailing = false;
      this.arm(() => {
        this.outputSeen = true; // stamp the preview again, from the screen as it is by then
        this.flush(false);
      });
    }
    const at = isoTime(this.d.clock.now());
    const extra = this.outputSeen ? { lastOutputAt: at, ...this.d.decorate?.(), revision: (this.record.revision ?? 0) + 1 } : {};
    this.record = { ...this.record, updatedAt: at, heartbeatAt: at, ...extra };
    this.outputSeen = false;
    try {
      writeHostFile(this.d.file, this.record, durable);
    } catch (err) {
      // A full disk must not take the session down; the log says what happened.
      this.d.onError(err as Error);
      return;
    }
    if (!heartbeatOnly) this.written.fire(this.record);
  }

  /** The runner is done: no more writes, no heartbeat. */
  dispose(): void {
    this.store.dispose();
  }

  private arm(fn: () => void): void {
    this.timer.value = this.d.scheduler.setTimeout(() => {
      this.timer.clear();
      fn();
    }, HOST_WRITE_COALESCE_MS);
  }
}
