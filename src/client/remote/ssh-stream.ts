/**
 * A session's stream over ssh: the child's stdin and stdout as one Duplex. Its
 * own module because node's streams cost about 1.5 ms to load and the hot
 * commands (send, hook, chat) reach this code only with --host: remote.ts
 * imports it when it connects.
 */
import type { ChildProcess } from 'node:child_process';
import { Duplex } from 'node:stream';
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable } from '../../core/lifetime.js';
import { terminate, type Termination } from '../../state/process/terminate.js';

/** After stdin ended, how long ssh may take to close before we kill it (a wedged link must not hang us). */
const CLOSE_GRACE_MS = 2000;

/** The child's stdin and stdout as one stream; destroying it kills the child. */
export class ChildStream extends Duplex {
  private stdoutEnded = false;
  /** How ssh is being ended, once it is. */
  private readonly ending = new MutableDisposable<Termination>();

  constructor(private readonly child: ChildProcess, private readonly scheduler: Scheduler) {
    // Not half-open: when the remote side ends, so do we, like a socket.
    super({ allowHalfOpen: false });
    const out = child.stdout!;
    out.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) out.pause();
    });
    out.on('end', () => {
      this.stdoutEnded = true;
      this.push(null);
    });
    out.on('error', (err) => this.destroy(err));
    // EPIPE once ssh is gone: its stdout ending tells the reader, with whatever it said last.
    child.stdin!.on('error', () => undefined); // nothing lost: see above
    child.on('error', (err) => this.destroy(err));
  }

  override _read(): void {
    this.child.stdout!.resume();
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.child.stdin!.write(chunk, () => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.child.stdin!.end();
    this.endLater();
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // ssh ended its output itself: let it exit, so its exit code can still be read.
    if (this.stdoutEnded) this.endLater();
    else this.ending.value = terminate(this.child, { scheduler: this.scheduler });
    cb(err);
  }

  /** Its input is closed, which asks ssh to end: SIGTERM only if it has not within the grace. */
  private endLater(): void {
    if (this.ending.value) return;
    this.ending.value = terminate(this.child, { scheduler: this.scheduler, signals: [], graceMs: CLOSE_GRACE_MS, killSignal: 'SIGTERM' });
  }
}
