import { HEARTBEAT_INTERVAL_MS } from '../core/protocol/host-status.js';
import type { HostRecord } from '../core/protocol/protocol.js';
import { writeHostFile } from '../state/host-store.js';

/** Resizes and output come in bursts; host.json is rewritten at most this often for them. */
export const HOST_WRITE_COALESCE_MS = 250;

/**
 * Owns host.json for the runner: the record in memory, atomic rewrites
 * (immediately for status changes, coalesced for the rest) and the heartbeat.
 */
export class HostWriter {
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private onError: (err: Error) => void;
  private outputSeen = false;
  /** Output came while a write was pending: one more write follows, so the preview shows the last screen. */
  private trailing = false;

  /** Fields computed at write time (the screen's last line), so they cost nothing per output chunk. */
  decorate: (() => Partial<HostRecord>) | null = null;

  /** Called after each write with the record as written: status pushes hang off it. */
  onWrite: ((record: HostRecord) => void) | null = null;

  constructor(private readonly file: string, public record: HostRecord, onError: (err: Error) => void) {
    this.onError = onError;
  }

  startHeartbeat(): void {
    this.heartbeat = setInterval(() => this.flush(false, true), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
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
    this.timer ??= setTimeout(() => this.flush(false), HOST_WRITE_COALESCE_MS);
  }

  /** The program printed: cheap enough for every output chunk (the time is stamped at the next write). */
  noteOutput(): void {
    this.outputSeen = true;
    if (this.timer) {
      // Output after the write was scheduled may not be parsed when it happens: write once more after it.
      this.trailing = true;
      return;
    }
    this.timer = setTimeout(() => this.flush(false), HOST_WRITE_COALESCE_MS);
  }

  /** `heartbeatOnly`: nothing a user can see changed, so watchers are not woken (100 idle sessions must cost the board nothing). */
  flush(durable = false, heartbeatOnly = false): void {
    // A change waiting for its coalesced write goes out with this one: then it is not heartbeat-only.
    heartbeatOnly &&= !this.outputSeen && this.timer === null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.trailing && !heartbeatOnly) {
      this.trailing = false;
      this.timer = setTimeout(() => {
        this.outputSeen = true; // stamp the preview again, from the screen as it is by then
        this.flush(false);
      }, HOST_WRITE_COALESCE_MS);
    }
    const at = new Date().toISOString();
    const extra = this.outputSeen ? { lastOutputAt: at, ...this.decorate?.(), revision: (this.record.revision ?? 0) + 1 } : {};
    this.record = { ...this.record, updatedAt: at, heartbeatAt: at, ...extra };
    this.outputSeen = false;
    try {
      writeHostFile(this.file, this.record, durable);
      if (!heartbeatOnly) this.onWrite?.(this.record);
    } catch (err) {
      // A full disk must not take the session down; the log says what happened.
      this.onError(err as Error);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = this.heartbeat = null;
  }
}
