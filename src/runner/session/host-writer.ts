/**
 * The runner's owner of host.json: the record in memory, atomic rewrites (at once for status
 * changes, coalesced for the rest), the heartbeat, and the screen's last line pushed to the
 * board between writes.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { HEARTBEAT_INTERVAL_MS } from '../../core/protocol/host-status.js';
import { DisposableStore, Emitter, MutableDisposable, type Event } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { writeHostFile } from '../../state/host-store.js';
import { isoTime } from '../../core/iso-time.js';

/** Resizes and output come in bursts; host.json is rewritten at most this often for them. */
export const HOST_WRITE_COALESCE_MS = 250;

/**
 * The screen's last line (a board row shows it) goes to the status watchers this soon after
 * output, at once after a quiet spell, without a file write (host.json follows within
 * HOST_WRITE_COALESCE_MS): one frame of the board's, so a printed line is on its row in a frame
 * and a session printing flat out costs a board one status frame per frame at most.
 */
export const PREVIEW_PUSH_MS = 16;

/** A push for output alone (the same last line) once the last stamp is this old: the row's age goes back to 0s. */
const OUTPUT_STAMP_MS = 1000;

export interface HostWriterDeps {
  file: string;
  record: HostRecord;
  clock: Clock;
  scheduler: Scheduler;
  /**
   * A write failed (a full disk): the session goes on, the log says so. Once per streak of
   * failures (and again when the cause changes): a heartbeat every 5 s must not fill a log on
   * the same full disk.
   */
  onError: (err: Error) => void;
  /** host.json could be written again after failing since `since` (ISO) with `code`. */
  onRecovered?: (code: string, since: string) => void;
  /** How often the heartbeat writes (default HEARTBEAT_INTERVAL_MS; the tests' runners beat faster). */
  heartbeatMs?: number;
  /** Fields computed at write time (the screen's last line), so they cost nothing per output chunk. */
  decorate?: () => Partial<HostRecord>;
  /**
   * Runs `fn` once the output so far is in the screen model (TerminalModel.whenParsed). Given,
   * output pushes the screen's last line (onPush) within PREVIEW_PUSH_MS, between writes.
   */
  settled?: (fn: () => void) => void;
}

export class HostWriter {
  record: HostRecord;
  private readonly store = new DisposableStore();
  private readonly timer = this.store.add(new MutableDisposable());
  private readonly heartbeat = this.store.add(new MutableDisposable());
  private readonly written = this.store.add(new Emitter<HostRecord>());
  private readonly pushed = this.store.add(new Emitter<HostRecord>());
  private readonly pushTimer = this.store.add(new MutableDisposable());
  /** A push is on its way (its timer, or waiting for the model). */
  private pushing = false;
  /** Output came while a push was on its way: the model may not have had it then, so one more push follows. */
  private pushAgain = false;
  private lastPushAt = Number.NEGATIVE_INFINITY;
  /** A write's push is left to the coming push of the last line (see flush), at the latest PREVIEW_PUSH_MS later. */
  private pushOwed = false;
  private readonly owedTimer = this.store.add(new MutableDisposable());
  private outputSeen = false;
  /** Output came while a write was pending: one more write follows, so the preview shows the last screen. */
  private trailing = false;

  /**
   * After each write that a watcher should see, with the record as written: status pushes hang off
   * it. While host.json cannot be written, after every try, heartbeats included, with the record
   * as it is in memory and the failure in it (`cannotWrite`): then the pushes are the runner's
   * heartbeat, and a board that hears them knows it lives (docs/architecture.md, "Liveness").
   */
  readonly onWrite: Event<HostRecord> = this.written.event;
  /** The record with the screen's last line as it is now, not written yet (see PREVIEW_PUSH_MS): status pushes hang off it too. */
  readonly onPush: Event<HostRecord> = this.pushed.event;

  constructor(private readonly d: HostWriterDeps) {
    this.record = d.record;
  }

  startHeartbeat(): void {
    this.heartbeat.value = this.d.scheduler.setInterval(() => this.flush(false, true), this.d.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  }

  /**
   * Whether the last write worked: what the record said then is on disk (a change that came since
   * waits for its coalesced write, which a runner on its way out never needs: the exit's write is
   * the last that matters).
   */
  get saved(): boolean {
    return this.record.cannotWrite === undefined;
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

  /**
   * Merges `patch` and writes it at once (fsynced), for a change a client waits on (a rename):
   * null once it is on disk; when the write fails, the change is taken back (the record keeps only
   * the failure's note, and will not write the change later behind the client's back) and the
   * failure's code is the answer.
   */
  commit(patch: Partial<HostRecord>): string | null {
    const before = this.record;
    this.record = { ...before, ...patch, revision: (before.revision ?? 0) + 1 };
    const failed = this.write(true);
    if (failed === null) {
      this.written.fire(this.record);
      return null;
    }
    const back = Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof HostRecord]]));
    this.record = { ...this.record, ...back, revision: before.revision };
    this.written.fire(this.record);
    return failed;
  }

  /** The program printed: cheap enough for every output chunk (the time is stamped at the next write). */
  noteOutput(): void {
    this.outputSeen = true;
    this.armPush();
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
    const recovering = this.record.cannotWrite !== undefined;
    if (this.write(durable) !== null) {
      // The record stays in memory, written by a later try; the watchers hear that this runner lives.
      this.written.fire(this.record);
      return;
    }
    // Written again after failing: the watchers hear it (the failure's note is gone), heartbeat or not.
    if (recovering) heartbeatOnly = false;
    if (heartbeatOnly) return;
    if (this.pushing && !durable && !recovering) {
      // The last line's push is on its way (this change came with output: a session turning
      // busy): it carries this record too, so the board draws the two in one frame, not two.
      this.pushOwed = true;
      this.owedTimer.value ??= this.d.scheduler.setTimeout(() => this.payOwed(), PREVIEW_PUSH_MS);
      return;
    }
    this.written.fire(this.record);
  }

  /**
   * Stamps the record and writes it: null when it is on disk, else the failure's code, kept in the
   * record (`cannotWrite`, since when) until a write works again. The failure is told once per
   * streak (and cause), the recovery once.
   */
  private write(durable: boolean): string | null {
    const at = isoTime(this.d.clock.now());
    const extra = this.outputSeen ? { lastOutputAt: at, ...this.d.decorate?.(), revision: (this.record.revision ?? 0) + 1 } : {};
    const { cannotWrite: failing, cannotWriteSince: since, ...record } = { ...this.record, updatedAt: at, heartbeatAt: at, ...extra };
    this.outputSeen = false;
    try {
      writeHostFile(this.d.file, record, durable);
    } catch (err) {
      // A full disk must not take the session down: it goes on, and says so to whoever asks.
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      this.record = { ...record, cannotWrite: code, cannotWriteSince: since ?? at };
      if (failing !== code) this.d.onError(err as Error);
      return code;
    }
    this.record = record;
    if (failing !== undefined) this.d.onRecovered?.(failing, since ?? at);
    return null;
  }

  /** A change whose push waited for the last line's (flush), when that one took longer than PREVIEW_PUSH_MS. */
  private payOwed(): void {
    this.owedTimer.clear();
    if (!this.pushOwed || this.store.isDisposed) return;
    this.pushOwed = false;
    this.written.fire(this.record);
  }

  /** The runner is done: no more writes, no heartbeat. */
  dispose(): void {
    this.store.dispose();
  }

  /** A push of the last line PREVIEW_PUSH_MS after the last one (at once after a quiet spell), once the model has the output. */
  private armPush(): void {
    const settled = this.d.settled;
    if (!settled) return;
    if (this.pushing) {
      this.pushAgain = true;
      return;
    }
    this.pushing = true;
    this.pushAgain = false;
    const wait = Math.max(0, this.lastPushAt + PREVIEW_PUSH_MS - this.d.clock.now());
    this.pushTimer.value = this.d.scheduler.setTimeout(() => {
      this.pushTimer.clear();
      settled(() => {
        this.pushing = false;
        if (this.store.isDisposed) return;
        this.pushPreview();
        if (this.pushAgain) this.armPush();
      });
    }, wait);
  }

  private pushPreview(): void {
    const now = this.d.clock.now();
    this.lastPushAt = now;
    const extra = this.d.decorate?.() ?? {};
    const stamped = Date.parse(this.record.lastOutputAt ?? '');
    const sameLine = extra.previewLine === undefined || extra.previewLine === this.record.previewLine;
    if (sameLine && now - stamped < OUTPUT_STAMP_MS) {
      this.payOwed();
      return;
    }
    this.pushOwed = false;
    this.owedTimer.clear();
    // Not a new revision: the revision counts what the runner writes (reconcile's hostRevision is
    // host.json's). The write that follows stamps the line again, with the next revision.
    this.record = { ...this.record, ...extra, lastOutputAt: new Date(now).toISOString() };
    this.outputSeen = true;
    if (!this.timer.value) this.arm(() => this.flush(false));
    this.pushed.fire(this.record);
  }

  private arm(fn: () => void): void {
    this.timer.value = this.d.scheduler.setTimeout(() => {
      this.timer.clear();
      fn();
    }, HOST_WRITE_COALESCE_MS);
  }
}
