/**
 * How many bad frames a page may send before its socket is closed (docs/web.md): a page with a
 * bug gets an `error` frame per bad frame and goes on; a page (or anyone with a stolen cookie)
 * that floods the server with them loses that one socket, never the others.
 */
import type { Clock } from '../../../core/clock.js';

/** More bad frames than this within BAD_FRAME_WINDOW_MS closes the socket (code 1008, policy violation). */
export const MAX_BAD_FRAMES = 20;
export const BAD_FRAME_WINDOW_MS = 10_000;

/** The bad frames of one socket in the last window, on the injected clock. */
export class BadFrames {
  /** When each bad frame of the window came, oldest first (at most MAX_BAD_FRAMES + 1 kept). */
  private readonly times: number[] = [];

  constructor(private readonly clock: Clock) {}

  /** Counts one; true when that makes too many (the caller closes the socket). */
  note(): boolean {
    const now = this.clock.now();
    this.times.push(now);
    while (this.times.length > 0 && this.times[0]! <= now - BAD_FRAME_WINDOW_MS) this.times.shift();
    if (this.times.length > MAX_BAD_FRAMES + 1) this.times.shift();
    return this.times.length > MAX_BAD_FRAMES;
  }
}
