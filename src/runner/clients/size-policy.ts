/**
 * The session's size: the PTY and the model resized together, the host file following; the size
 * follows the most recently active interactive client (tmux's latest policy). An attach borrows
 * the size and gives it back: when the last interactive client with a size leaves, the session
 * goes back to the size it had before the first of them came (a phone's attach does not leave a
 * desktop session phone-sized for the board that watches it). Read-only clients and the board's
 * preview send no size, so they never size it.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { clampSize, type TermSize } from '../../core/protocol/size.js';
import type { ClientConn } from './client-conn.js';
import type { ClientSet } from './client-set.js';

/**
 * A client whose connection dropped (no `detach`) may be back: the attach client reconnects for
 * about 4 s (src/client/attach.ts). Its size is kept that long, so a blip of the link does not
 * make the program redraw twice.
 */
export const REST_AFTER_DROP_MS = 5000;

export interface SizeDeps {
  pty: { resize(cols: number, rows: number): void };
  model: { resize(cols: number, rows: number): void };
  host: { readonly record: HostRecord; update(patch: Partial<HostRecord>): void };
  clients: ClientSet;
  clock: Clock;
  scheduler: Scheduler;
  exited(): boolean;
}

export class SizePolicy implements Disposable {
  /** The size before the interactive clients that hold it came; null while none did. */
  private resting: TermSize | null = null;
  /** Going back to it after a dropped connection, unless a sized client comes first. */
  private readonly restTimer = new MutableDisposable();

  constructor(private readonly d: SizeDeps) {}

  /** Resize PTY and model together; the host file follows. */
  apply(cols: number, rows: number): void {
    const size = clampSize(cols, rows);
    const rec = this.d.host.record;
    if (size.cols === rec.cols && size.rows === rec.rows) return;
    this.d.pty.resize(size.cols, size.rows);
    this.d.model.resize(size.cols, size.rows);
    this.d.host.update(size);
  }

  /** This client asked for a size: it becomes the session's; returns the PTY's size after. */
  resizeFor(c: ClientConn, cols: number, rows: number): { cols: number; rows: number } {
    const size = clampSize(cols, rows);
    // The first to hold the size: what it was is what the session goes back to (kept across a reconnect's gap).
    if (!this.d.clients.latestSized() && !this.resting) this.resting = { cols: this.d.host.record.cols, rows: this.d.host.record.rows };
    this.restTimer.clear();
    c.want(size, this.d.clock.now());
    this.apply(size.cols, size.rows);
    return { cols: this.d.host.record.cols, rows: this.d.host.record.rows };
  }

  /**
   * A client left: the size follows the most recently active interactive client that is left;
   * when none is, it goes back to the size before them, at once after a `detach`, and
   * REST_AFTER_DROP_MS after a dropped connection (which may come back).
   */
  left(c: ClientConn): void {
    if (!c.size || c.readOnly || this.d.exited()) return;
    const next = this.d.clients.latestSized();
    if (next?.size) {
      this.apply(next.size.cols, next.size.rows);
      return;
    }
    if (!this.resting) return;
    if (c.detached) this.rest();
    else this.restTimer.value = this.d.scheduler.setTimeout(() => this.rest(), REST_AFTER_DROP_MS);
  }

  dispose(): void {
    this.restTimer.dispose();
  }

  private rest(): void {
    this.restTimer.clear();
    const to = this.d.clients.largestView() ?? this.resting;
    this.resting = null;
    if (to && !this.d.exited() && !this.d.clients.latestSized()) this.apply(to.cols, to.rows);
  }
}
