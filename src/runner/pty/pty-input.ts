/**
 * Our input for the program (prompts, keys), written to the PTY's master by us. node-pty writes
 * through the libuv thread pool (fs.write), so every keystroke waited for a worker thread to wake
 * before it reached the PTY: a visible part of the echo round trip. With a non-blocking master fd
 * we write it synchronously; whatever the kernel does not take now (a full PTY) waits here and
 * is retried, in order, on the next turn of the loop, as node-pty would. While the echo relay
 * holds the PTY (src/runner/pty/pty-host.ts lend) the writes go through it, so its own typing never
 * lands inside ours, and it hears when ours waits.
 */
import fs from 'node:fs';
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';

/** The next turn of the event loop: a write the kernel refused is tried again then. */
const NEXT_TURN_MS = 0;

/** A write the PTY did not take for now (Linux's EAGAIN), as the lease's writes report it (-errno). */
const EAGAIN = 11;

export interface PtyInputDeps {
  scheduler: Scheduler;
  /** The master fd, or null once the PTY is gone. */
  masterFd(): number | null;
  /** The lease's write while the echo relay holds the PTY (bytes taken, or -errno), else null. */
  borrowed(): ((bytes: Uint8Array) => number) | null;
  /** The queue began to wait for the program (true), or is empty again (false). */
  waitingChanged(waiting: boolean): void;
}

export class PtyInput implements Disposable {
  private readonly queue: Uint8Array[] = [];
  private readonly retry = new MutableDisposable();
  private wasWaiting = false;

  constructor(private readonly d: PtyInputDeps) {}

  /** Input waits for the program to read what came before it. */
  get waiting(): boolean {
    return this.queue.length > 0;
  }

  /**
   * Written after everything before it. Unless `owned`, `bytes` is a buffer the caller reuses
   * once this returns (a reader's): written now, or copied if it has to wait.
   */
  write(bytes: Uint8Array, owned = false): void {
    if (bytes.length === 0) return;
    if (this.queue.length > 0) {
      this.queue.push(owned ? bytes : Buffer.from(bytes));
      return;
    }
    this.queue.push(bytes);
    this.flush();
    // Queued alone, it was written at once: what the kernel did not take is still the caller's buffer.
    if (!owned && this.queue.length > 0) this.queue[0] = Buffer.from(this.queue[0]!);
  }

  /** The PTY is gone: nothing queued will be read. */
  clear(): void {
    this.retry.clear();
    this.queue.length = 0;
  }

  dispose(): void {
    this.clear();
  }

  /** Writes queued input until it is all in or the PTY is full (then again on the next turn of the loop). */
  private flush(): void {
    this.retry.clear();
    const fd = this.d.masterFd();
    while (this.queue.length > 0) {
      if (fd === null) {
        this.queue.length = 0; // the PTY is gone: nobody will read it
        return;
      }
      const head = this.queue[0]!;
      const n = this.writeOnce(fd, head);
      if (n === 'again') {
        // The program is not reading: try again after the loop has turned (node-pty does the same).
        this.retry.value = this.d.scheduler.setTimeout(() => this.flush(), NEXT_TURN_MS);
        return this.tell(true);
      }
      if (n === 'gone') {
        this.queue.length = 0; // EIO and the like: the child side is gone, as node-pty drops it too
        break;
      }
      if (n < head.length) this.queue[0] = head.subarray(n);
      else this.queue.shift();
    }
    this.tell(false);
  }

  private writeOnce(fd: number, bytes: Uint8Array): number | 'again' | 'gone' {
    const borrowed = this.d.borrowed();
    if (borrowed) {
      const n = borrowed(bytes);
      return n >= 0 ? n : n === -EAGAIN ? 'again' : 'gone';
    }
    try {
      return fs.writeSync(fd, bytes);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EAGAIN' ? 'again' : 'gone';
    }
  }

  private tell(waiting: boolean): void {
    if (waiting === this.wasWaiting) return;
    this.wasWaiting = waiting;
    this.d.waitingChanged(waiting);
  }
}
