/**
 * One page's WebSocket as the hub writes to it: a server message as one JSON text frame, and the
 * socket's backlog watched. A page that reads slower than the sessions it follows print (a phone
 * on a bad link) must not make the server hold their output for it without end: past
 * PAGE_PAUSE_BYTES of unsent frames the wire says it is congested, and the terminal bridges stop
 * reading their runners (the runner then drops them from its live stream, and sends a fresh
 * snapshot when they read again: a slow page gets a new exact frame, never a stall of the others);
 * under PAGE_RESUME_BYTES it says so on `onDrain`. No timer: the frames' own write callbacks say
 * when the socket took them.
 */
import type { WebSocket } from 'ws';
import { Emitter, type Disposable, type Event } from '../../../core/lifetime.js';
import type { ServerMessage } from '../../../core/web/web-protocol.js';

/** Unsent bytes on a page's socket past which its bridges stop reading their runners (the preview mirror's bound too). */
export const PAGE_PAUSE_BYTES = 1024 * 1024;
/** ... and under which they read again. */
export const PAGE_RESUME_BYTES = 128 * 1024;

export class PageWire implements Disposable {
  private readonly drains = new Emitter<void>();
  /** The backlog went back under PAGE_RESUME_BYTES after it passed PAGE_PAUSE_BYTES. */
  readonly onDrain: Event<void> = this.drains.event;
  private congestedNow = false;
  private disposed = false;

  constructor(private readonly ws: WebSocket) {}

  /** Over PAGE_PAUSE_BYTES of unsent frames, until it drains under PAGE_RESUME_BYTES. */
  get congested(): boolean {
    return this.congestedNow;
  }

  get open(): boolean {
    return !this.disposed && this.ws.readyState === this.ws.OPEN;
  }

  send(m: ServerMessage): void {
    if (!this.open) return;
    this.ws.send(JSON.stringify(m), (err) => {
      // An error here is the socket closing: its close event ends the page's state.
      if (err || !this.congestedNow || this.disposed) return;
      if (this.ws.bufferedAmount < PAGE_RESUME_BYTES) {
        this.congestedNow = false;
        this.drains.fire();
      }
    });
    if (!this.congestedNow && this.ws.bufferedAmount > PAGE_PAUSE_BYTES) this.congestedNow = true;
  }

  /** Closes the socket with a code the page reads (1008: too many bad frames; 4401: the device was revoked). */
  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  dispose(): void {
    this.disposed = true;
    this.drains.dispose();
  }
}
