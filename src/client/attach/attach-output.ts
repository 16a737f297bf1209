/** An attach's output to the user's terminal: written once per batch of frames, and reading paused while the terminal lags. */
import type { RunnerConnection } from '../link/connection.js';

/** What the batch writes to: the user's terminal (the AttachOutput of src/client/attach/attach.ts). */
interface BatchTerminal {
  write(data: string): boolean;
  once(event: 'drain', fn: () => void): unknown;
}

/**
 * Output is drawn once per batch of frames (one socket read), not once per
 * frame: a terminal write costs far more than the bytes it carries. The
 * connection says when a read's frames are all delivered (onBatchEnd) and
 * the batch is written then: a keystroke's echo does not wait for the
 * socket stream's own bookkeeping that runs before a microtask would, nor
 * pays for queueing one. Output shown outside a read of the current
 * connection (messages replayed to a new listener) still goes by microtask.
 */
export class OutputBatch {
  private pending = '';

  /** `connection`: the attach's current connection (null between connections); `ended`: the attach is over. */
  constructor(
    private readonly output: BatchTerminal,
    private readonly connection: () => RunnerConnection | null,
    private readonly ended: () => boolean,
  ) {}

  /** Writes what is pending (a batch's end, a microtask, or before anything else goes to the terminal). */
  readonly flush = (): void => {
    const data = this.pending;
    this.pending = '';
    if (!data || this.ended()) return;
    const conn = this.connection();
    if (!this.output.write(data) && conn) {
      // The user's terminal is slower than the session: stop reading, so the
      // runner sees us fall behind and sends a fresh frame when we catch up.
      const paused = conn;
      paused.socket.pause();
      this.output.once('drain', () => paused.socket.resume());
    }
  };

  show(data: string): void {
    // Inside a read of the current connection its batch end writes this; otherwise a microtask does.
    if (!this.pending && !this.connection()?.delivering) queueMicrotask(this.flush);
    this.pending += data;
  }
}
