/**
 * Direct output: the runner writes a local client's terminal output to the client's own terminal
 * itself, as tmux's server does, instead of sending it over the socket for the client to write
 * (docs/protocol.md, "Direct output"). A DirectTerminal is the ClientConn's output sink: the same
 * bytes in the same order the client would have written (the first frame's reset included), a
 * non-blocking writer so a slow terminal never stalls the runner (it falls behind and is
 * re-snapshotted like a slow socket), and a clean hand-back: stop, wait until everything is
 * with the kernel, say so. It also follows what the client can no longer see: whether the
 * alternate screen is on (for the client's restore) and the kind's settle marker (for its jiggle chain).
 * When the client asks, it also holds the reader of the client's keys (direct input,
 * src/runner/direct/direct-input.ts), which every hand-back and failure closes first, and then the echo
 * relay, whose thread writes the output to this terminal while it is in step (src/runner/direct/echo-relay.ts)
 * and is stopped before anything else. A subscribe's request is checked and the writer opened by
 * src/runner/direct/direct-offer.ts.
 */
import fs from 'node:fs';
import tty from 'node:tty';
import type { Clock, Scheduler } from '../../core/clock.js';
import { toDisposable, type Disposable } from '../../core/lifetime.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import { AltScreenTracker, terminalRestoreSequence } from '../../core/terminal/terminal-restore.js';
import type { KeyOwner } from './direct-input.js';
import { ShownAhead, type EchoRelay, type RelayTerminal } from './echo-relay.js';
import type { HandBack, OutputSink } from '../clients/output-sink.js';
import { SettleWatch } from './settle-watch.js';
import { streamFd } from '../node-internals.js';

/** CAN: cancels an escape sequence a writer that was cut left open (ignored between sequences). */
const CANCEL = '\x18';

/** What a direct terminal needs of the runner (src/runner/direct/direct-offer.ts gives it). */
export interface TerminalDeps {
  clock: Clock;
  scheduler: Scheduler;
  /** The settle markers of the kind whose rules apply now (what the client's jiggle chain looks for). */
  settleMarkers(): readonly string[];
  /** Told to the client: alt-screen changes, settle-marker hits. */
  tell(m: RunnerMessage): void;
  /** The terminal failed (hung up, closed): the client is dropped. */
  failed(why: string): void;
}

export class DirectTerminal implements OutputSink, KeyOwner, RelayTerminal {
  private readonly alt = new AltScreenTracker();
  /** The alternate screen after the last write the kernel took, and as last told to the client. */
  private writtenAlt: boolean;
  private toldAlt: boolean;
  private inFlight = 0;
  /** A stop waiting for the writes in flight (cut: they failed). */
  private idle: ((cut: boolean) => void) | null = null;
  private stopped = false;
  private dead = false;
  private cancelFirst: boolean;
  private readonly settle = new SettleWatch();
  /** The reader of the client's keys (direct input), closed before anything else at every end. */
  private input: Disposable | null = null;
  /** Keys read after the detach key, for the client to put back (direct_off). */
  private keysAfter = '';
  /** The client is on the live stream (every chunk comes to write()). */
  private isLive = false;
  /** The echo relay, when its thread writes the output as it reads it (src/runner/direct/echo-relay.ts). */
  private relay: EchoRelay | null = null;
  /** Output the relay's thread has written already, which write() skips as it comes. */
  private readonly ahead = new ShownAhead();
  private relaySoon: Disposable | null = null;

  /** The fd libuv writes the terminal on (checked: src/runner/direct/tty-check.ts): written straight when nothing is queued. */
  private readonly fd: number;

  constructor(
    private readonly out: tty.WriteStream,
    altScreen: boolean,
    cut: boolean,
    private readonly d: TerminalDeps,
  ) {
    this.alt.active = altScreen;
    this.writtenAlt = this.toldAlt = altScreen;
    this.cancelFirst = cut;
    this.fd = streamFd(out) ?? -1; // nonBlockingWriter has checked it (a closed fd makes writeSync fail: EBADF)
    this.out.on('error', (err: NodeJS.ErrnoException) => this.fail(err.code ?? err.message));
  }

  get backlog(): number {
    return this.out.writableLength;
  }

  /**
   * Output: exactly these bytes (`data`'s UTF-8, or `raw` when given: the same, not encoded
   * again), after everything written before. With nothing in flight they go to the kernel here
   * and now, before any bookkeeping (the echo of a key a user waits for); what it does not take
   * then, and everything after it until it has, is queued on the stream.
   */
  write(data: string, raw?: Uint8Array | null): void {
    if (this.stopped || this.dead) return;
    const bytes = this.ahead.none ? raw : this.ahead.rest(data, raw ?? null);
    if (this.inFlight === 0) return this.writeNow(data, bytes ?? Buffer.from(data, 'utf8'));
    this.alt.feed(data);
    this.queue(bytes ?? data);
    this.tellAlt();
    if (this.settle.watching) this.watchSettle(data);
  }

  /** At once, with nothing in flight: what the kernel takes now is written; the rest is queued. */
  private writeNow(data: string, bytes: Uint8Array): void {
    let n = 0;
    try {
      if (bytes.length > 0) n = fs.writeSync(this.fd, bytes);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN') return this.fail(code ?? String(err));
    }
    this.alt.feed(data);
    if (n < bytes.length) this.queue(bytes.subarray(n));
    else this.writtenAlt = this.alt.active;
    this.tellAlt();
    if (this.settle.watching) this.watchSettle(data);
  }

  /** On the stream, after what is in flight; the alternate screen as it is after these bytes counts once the kernel has them. */
  private queue(chunk: string | Uint8Array): void {
    const after = this.alt.active;
    this.inFlight++;
    this.out.write(chunk, (err) => {
      this.inFlight--;
      if (!err) {
        this.writtenAlt = after;
        this.tellAlt();
      }
      if (this.inFlight === 0) {
        this.idle?.(false);
        this.relay?.sync(); // in step again: the thread may write the terminal
      }
    });
  }

  /** A snapshot's frame, as the attach client draws one: what the terminal shows now is left, then the frame on a clear screen. */
  screen(frame: string): void {
    const cancel = this.cancelFirst ? CANCEL : '';
    this.cancelFirst = false;
    this.write(cancel + terminalRestoreSequence(this.alt.active) + '\x1b[H\x1b[2J' + frame);
  }

  /** The stream went live (again): the client's jiggle chain starts over, and so does the settle watch. */
  live(): void {
    this.settle.start(this.d.settleMarkers(), this.d.clock.now());
    this.isLive = true;
    // Nothing of the thread's writes is owed from before (it writes only for a live client). It
    // starts writing on the next turn: the replay that follows this (goLive) is written here first.
    this.ahead.reset();
    this.relaySoon?.dispose();
    if (this.relay) this.relaySoon = this.d.scheduler.setTimeout(() => this.relay?.sync(), 0);
  }

  /** The client left the live stream (it fell behind): the thread stops writing its terminal. */
  notLive(): void {
    this.isLive = false;
    this.relay?.sync();
  }

  /** The client said hello again (read-only now, maybe): the thread types only while the `input` row's gate says yes. */
  mayTypeChanged(): void {
    this.relay?.sync();
  }

  // RelayTerminal: the echo relay writes this terminal while it is in step.

  /** The relay's thread writes the output to this terminal while it is in step (until the sink ends). */
  relayWith(relay: EchoRelay): void {
    if (this.stopped || this.dead) return relay.dispose();
    this.relay = relay;
    relay.sync();
  }

  get terminalFd(): number {
    return this.fd;
  }

  /** Live, nothing of ours queued, no stop begun: the thread's write of the next output comes right after ours. */
  get inSync(): boolean {
    return this.isLive && this.inFlight === 0 && !this.stopped && !this.dead;
  }

  shownAhead(n: number): void {
    this.ahead.add(n);
  }

  failed(why: string): void {
    this.fail(why);
  }

  onceDrained(fn: () => void): Disposable {
    this.out.once('drain', fn);
    return toDisposable(() => this.out.off('drain', fn));
  }

  /** The client's keys are read from its terminal by `input` (direct input) until the sink ends. */
  readKeys(input: Disposable): void {
    if (this.stopped || this.dead) return input.dispose();
    this.input = input;
  }

  /** Direct input read the detach key: no more keys are read; `after` goes back to the client with the hand-back. */
  detachKeyRead(after: string): void {
    this.closeInput();
    this.keysAfter = after;
  }

  /** Direct input's terminal ended (EOF, EIO): handled as a failed write. */
  inputFailed(why: string): void {
    this.fail(why);
  }

  /** No more writes (and no more keys read, at once); resolves once the kernel has all of them (or after timeoutMs, `cut`), with the fd closed. */
  stop(timeoutMs: number): Promise<HandBack> {
    this.endRelay();
    this.stopped = true;
    this.closeInput();
    return new Promise((resolve) => {
      let timer: Disposable | null = null;
      const finish = (cut: boolean) => {
        timer?.dispose();
        this.idle = null;
        this.close();
        // Cut: what was queued may or may not have reached the terminal; the alternate screen counts as on if either says so.
        const keys = this.keysAfter ? { keys: this.keysAfter } : {};
        resolve({ altScreen: cut ? this.writtenAlt || this.alt.active : this.writtenAlt, cut, ...keys });
      };
      if (this.inFlight === 0 || this.dead) return finish(this.dead && this.inFlight > 0);
      this.idle = finish;
      timer = this.d.scheduler.setTimeout(() => finish(true), timeoutMs);
    });
  }

  /** At once: the fd is closed, whatever is still queued is dropped. */
  dispose(): void {
    this.stopped = true;
    this.close();
  }

  /**
   * The relay's thread stops (joined: it writes nothing more). What it wrote that has not come
   * through write() yet counts for the alternate screen the client restores by; keys it read
   * that nobody looked at go back to the client with the keys after a detach key.
   */
  private endRelay(): void {
    this.relaySoon?.dispose();
    const relay = this.relay;
    this.relay = null;
    if (!relay) return;
    const rest = relay.stop();
    if (rest.shown) {
      this.alt.feed(rest.shown.toString('latin1')); // its escape sequences are ASCII
      if (this.inFlight === 0) this.writtenAlt = this.alt.active;
    }
    if (rest.keys) this.keysAfter += rest.keys.toString('utf8');
  }

  /** What the client restores by: true as soon as a switch to the alternate screen is queued, false only once a switch back is written. */
  private tellAlt(): void {
    const now = this.alt.active || this.writtenAlt;
    if (now === this.toldAlt || this.dead) return;
    this.toldAlt = now;
    this.d.tell({ type: 'direct_alt', active: now });
  }

  private watchSettle(data: string): void {
    if (this.settle.seen(data, this.d.clock.now())) this.d.tell({ type: 'direct_settled' });
  }

  /** A write failed (the terminal hung up or closed): nothing more is written; a stop ends at once, else the client is dropped. */
  private fail(why: string): void {
    if (this.dead) return;
    this.dead = true;
    this.close();
    if (this.idle) this.idle(true);
    else if (!this.stopped) this.d.failed(why);
  }

  private close(): void {
    this.endRelay();
    this.closeInput();
    if (!this.out.destroyed) this.out.destroy();
  }

  private closeInput(): void {
    const input = this.input;
    this.input = null;
    input?.dispose();
  }
}
