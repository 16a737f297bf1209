/**
 * The session's size: the PTY and the model resized together, the host file following; the size
 * follows the most recently active interactive client (tmux's latest policy).
 */
import type { Clock } from '../core/clock.js';
import type { HostRecord } from '../core/protocol/protocol.js';
import { clampSize } from '../core/protocol/size.js';
import type { ClientConn } from './client-conn.js';
import type { ClientSet } from './clients.js';

export interface SizeDeps {
  pty: { resize(cols: number, rows: number): void };
  model: { resize(cols: number, rows: number): void };
  host: { readonly record: HostRecord; update(patch: Partial<HostRecord>): void };
  clients: ClientSet;
  clock: Clock;
  exited(): boolean;
}

export class SizePolicy {
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
    c.want(size, this.d.clock.now());
    this.apply(size.cols, size.rows);
    return { cols: this.d.host.record.cols, rows: this.d.host.record.rows };
  }

  /** A client left: the size follows the most recently active interactive client that is left. */
  left(c: ClientConn): void {
    if (!c.size || this.d.exited()) return;
    const next = this.d.clients.latestSized();
    if (next?.size) this.apply(next.size.cols, next.size.rows);
  }
}
