/**
 * One child in a PTY (node-pty), and the only file that knows node-pty's insides: the direct
 * write path, the slave-side fd and the undecoded output below use fields of node-pty 1.1.0's
 * UnixTerminal (pinned exactly in package.json) that are not part of its documented API.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as NodePty from 'node-pty';
import type { Scheduler } from '../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../core/lifetime.js';
import { TERMINATE_GRACE_MS } from '../core/session-timings.js';
import { signalName, type ChildExit } from './child-exit.js';
import { Utf8Chunker, type PtyOutput } from './utf8-chunker.js';

export type { PtyOutput } from './utf8-chunker.js';
export type { ChildExit } from './child-exit.js';

/** Required, not imported, as @xterm/headless is (src/state/headless-terminal.ts): the ESM import of a CommonJS package costs memory. */
const pty = createRequire(import.meta.url)('node-pty') as typeof NodePty;

export interface PtyHostOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** The kill grace timer and the write retry run on it. */
  scheduler: Scheduler;
}

/**
 * What this file uses of node-pty 1.1.0's UnixTerminal beyond its typings (undocumented, so
 * checked at run time and used only when present): the master fd and the socket that owns it
 * (the direct write), and the slave's path (held open against the exit-time output loss).
 */
interface PtyInternals {
  fd?: unknown;
  _socket?: NodeSocketInternals;
  ptsName?: unknown;
}

/** What the lease below uses of node's net.Socket (the tty.ReadStream node-pty reads the master with). */
interface NodeSocketInternals {
  destroyed?: unknown;
  _readableState?: { decoder?: unknown; encoding?: unknown; length?: unknown; reading?: unknown };
  _handle?: { reading?: unknown; readStop?: unknown } | null;
  _read?: unknown;
  read?: (n: number) => unknown;
}

/**
 * What borrows the PTY's reads and input while a direct client is attached: the echo relay
 * (src/runner/echo-relay.ts), a thread that reads the output and types keys itself. PtyHost
 * tells it what changes under it.
 */
export interface PtyBorrower {
  /** Input written by us (prompts, other clients' keys) while the borrower may type too: the bytes taken, or -errno. */
  writePty(bytes: Uint8Array): number;
  /** The PTY is paused (the model's backlog bound; false) or resumed (true). */
  reading(on: boolean): void;
  /** Our input queue waits for the program (true) or is empty again (false): keys must not pass it. */
  inputWaiting(waiting: boolean): void;
  /** The size changed: a key typed now must come after the client's own size is applied. */
  resized(): void;
  /** The PTY is ending (its exit comes next): everything read is fed now, and the lease is given back. */
  end(): void;
}

/** The PTY lent to a borrower: its master fd, and the way back for what it reads. */
export interface PtyLease extends Disposable {
  readonly fd: number;
  readonly paused: boolean;
  /** The output so far ends inside a character, whose first bytes are held for the next read (utf8-chunker.ts). */
  readonly midCharacter: boolean;
  /** Output the borrower read, in order: handled as node-pty's reads are. */
  feed(bytes: Buffer): void;
  /** Output read but not fed when the lease ends where feeding is not safe: fed on the next turn, before node-pty reads again. */
  leave(bytes: Buffer): void;
}

/** The next turn of the event loop: a write the kernel refused is tried again then. */
const NEXT_TURN_MS = 0;

/** A write the PTY did not take for now (Linux's EAGAIN), as the lease's writes report it (-errno). */
const EAGAIN = 11;

/** O_NONBLOCK in /proc/self/fdinfo's octal flags (Linux). */
const O_NONBLOCK = 0o4000;

/**
 * Only a non-blocking master fd may be written from the event loop (a blocking
 * write to a full PTY would hang the runner), and only when node-pty exposes
 * it the way 1.1.0 does; otherwise node-pty keeps writing.
 */
function canWriteDirectly(p: PtyInternals): boolean {
  if (typeof p.fd !== 'number' || typeof p._socket?.destroyed !== 'boolean') return false;
  try {
    const info = fs.readFileSync(`/proc/self/fdinfo/${p.fd}`, 'utf8');
    const flags = /^flags:\s*([0-7]+)/m.exec(info);
    return flags !== null && (parseInt(flags[1]!, 8) & O_NONBLOCK) !== 0;
  } catch {
    return false; // no /proc (not Linux): node-pty writes
  }
}

/**
 * The output as bytes. Spawning with encoding 'utf8' is what sets IUTF8 on the terminal (erase in
 * canonical mode takes a whole character, as in tmux's panes), and it also makes node-pty's socket
 * decode every read. That decoding is undone before any read by clearing the decoder Node's
 * Readable keeps (_readableState's decoder and encoding): reads come as Buffers, cut and decoded
 * by utf8-chunker.ts. Where Node keeps it elsewhere, reads stay strings and are taken as text.
 */
function undoDecoding(p: PtyInternals): boolean {
  const state = p._socket?._readableState;
  if (!state || !('decoder' in state) || !('encoding' in state) || state.length !== 0) return false;
  state.decoder = state.encoding = null;
  return true;
}

/**
 * Stops node-pty's reads of the master while a borrower reads it: libuv's read is stopped, and
 * the socket's _read (which Readable's read-ahead calls, and which would start it again) does
 * nothing until holdReads' undo puts it back and starts reading again. False when node's
 * socket is not as expected: then nothing was changed.
 */
function holdReads(s: NodeSocketInternals | undefined): (() => void) | null {
  const h = s?._handle;
  if (!s || !h || typeof h.readStop !== 'function' || typeof s.read !== 'function' || s.destroyed !== false || !s._readableState) return null;
  s._read = () => {};
  if (h.reading === true) {
    h.reading = false;
    (h.readStop as () => number).call(h);
  }
  return () => {
    delete s._read; // net.Socket's own again
    if (s.destroyed !== false) return;
    s._readableState!.reading = false;
    s.read!(0); // net.Socket._read: libuv reads again (a paused socket fills its buffer, as before the lease)
  };
}

/**
 * One child in a PTY, with the exit-time output loss fixed: libuv on Node 20 takes POLLHUP plus a
 * short read as end of file while the PTY still holds data. Holding our own fd on the slave side
 * keeps the master from ever seeing the hang-up; node-pty then reads until its exit timer, and we
 * close the slave when the exit is reported.
 */
export class PtyHost implements Disposable {
  private readonly pty: NodePty.IPty;
  private slaveFd: number | null = null;
  private readonly store = new DisposableStore();
  private readonly killTimer = this.store.add(new MutableDisposable());
  private exited: ChildExit | null = null;
  private readonly exitEmitter = this.store.add(new Emitter<ChildExit>());
  /** Input is written to the master fd by us (see write); false: node-pty's own write. */
  private readonly direct: boolean;
  private readonly writeQueue: Uint8Array[] = [];
  private readonly writeRetry = this.store.add(new MutableDisposable());
  private readonly scheduler: Scheduler;
  private readonly chunker = new Utf8Chunker();
  private readonly outputEmitter = this.store.add(new Emitter<PtyOutput>());
  /** Reads come as bytes (node-pty's decoding undone): only then can they be lent. */
  private readonly rawReads: boolean;
  private paused = false;
  /** What node-pty's socket was last told (pause/resume), which a lease leaves alone. */
  private socketPaused = false;
  private lease: { borrower: PtyBorrower; giveBack: () => void; waiting: boolean } | null = null;
  /** Output a lease left behind (PtyLease.leave), fed before node-pty reads again. */
  private left: Buffer[] = [];
  private readonly feedLeft = this.store.add(new MutableDisposable());
  private readonly onRead: (data: string | Buffer) => void;

  /** How the child ended, once (after the last output). */
  readonly onExit: Event<ChildExit> = this.exitEmitter.event;
  /** The program's output, in chunks that end on a character boundary (utf8-chunker.ts). */
  readonly onOutput: Event<PtyOutput> = this.outputEmitter.event;

  constructor(opts: PtyHostOptions) {
    this.scheduler = opts.scheduler;
    this.pty = pty.spawn(opts.command, opts.args, {
      name: 'xterm-256color',
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      env: opts.env,
      encoding: 'utf8',
    });
    this.rawReads = undoDecoding(this.pty as unknown as PtyInternals);
    const ptsName = (this.pty as unknown as PtyInternals).ptsName;
    if (typeof ptsName === 'string' && ptsName) {
      try {
        this.slaveFd = fs.openSync(ptsName, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
      } catch {
        this.slaveFd = null; // the child may already be gone; nothing to hold open
      }
    }
    this.direct = canWriteDirectly(this.pty as unknown as PtyInternals);
    this.onRead = (data: string | Buffer) => {
      // A string: the decoding could not be undone (undoDecoding), so the read is text alone.
      const out = typeof data === 'string' ? { text: data, raw: null } : this.chunker.push(data);
      if (out) this.outputEmitter.fire(out);
    };
    this.store.add(this.pty.onData(this.onRead));
    this.store.add(
      this.pty.onExit(({ exitCode, signal }) => {
        // All output before the exit: what an ended lease left (the older), then what the lease holds now.
        this.feedLeftNow();
        this.lease?.borrower.end();
        // node-pty reports the exit after the last read: an unfinished character is all that can be left.
        const last = this.chunker.flush();
        if (last) this.outputEmitter.fire(last);
        this.closeSlave();
        this.writeRetry.clear();
        this.writeQueue.length = 0;
        this.killTimer.clear();
        const sig = signalName(signal);
        this.exited = { code: sig ? null : exitCode, signal: sig };
        this.exitEmitter.fire(this.exited);
      }),
    );
  }

  /**
   * Lets go of our side: timers, listeners, the slave fd. A child still running gets the same
   * SIGTERM and SIGHUP as `terminate` (no grace timer: the runner is going away).
   */
  dispose(): void {
    this.lease = null; // the borrower's own owner closes it
    this.left = [];
    if (!this.exited) {
      this.signal('SIGTERM');
      this.signal('SIGHUP');
    }
    this.store.dispose();
    this.closeSlave();
  }

  get pid(): number {
    return this.pty.pid;
  }

  get hasExited(): boolean {
    return this.exited !== null;
  }

  /** The output as text alone. */
  onData(fn: (text: string) => void): Disposable {
    return this.onOutput((o) => fn(o.text));
  }

  /**
   * Input for the program. node-pty writes through the libuv thread pool
   * (fs.write), so every keystroke waited for a worker thread to wake before
   * it reached the PTY: a visible part of the echo round trip. When the master
   * fd is non-blocking we write it here, synchronously; whatever the kernel
   * does not take now (a full PTY) waits in our queue and is retried, in
   * order, as node-pty would. Without a usable fd, node-pty writes as before.
   */
  write(data: string): void {
    if (this.exited) return;
    if (!this.direct) {
      this.pty.write(data);
      return;
    }
    this.queueBytes(Buffer.from(data, 'utf8'));
  }

  /**
   * Input as bytes (keys read straight from a client's terminal): the same as write() of their
   * text. `bytes` may be a reader's buffer that its next read reuses: written now, or copied if
   * it has to wait.
   */
  writeBytes(bytes: Uint8Array): void {
    if (this.exited || bytes.length === 0) return;
    if (!this.direct) {
      this.pty.write(Buffer.from(bytes));
      return;
    }
    const waiting = this.writeQueue.length > 0;
    this.queueBytes(waiting ? Buffer.from(bytes) : bytes);
    // Queued alone, they were written at once; what the kernel did not take is still the reader's buffer.
    if (!waiting && this.writeQueue.length > 0) this.writeQueue[0] = Buffer.from(this.writeQueue[0]!);
  }

  /**
   * The PTY's reads and our input lent to `borrower` (the echo relay) until the lease is
   * disposed: node-pty stops reading the master, what the borrower reads comes back through
   * feed(), and our input is written through the borrower, which keeps its own typing out of the
   * middle of it. Null when it cannot be lent: no direct writes, reads that are not bytes, the
   * program gone, another lease, or a node whose socket this does not know.
   */
  lend(borrower: PtyBorrower): PtyLease | null {
    if (this.lease || this.exited || !this.direct || !this.rawReads) return null;
    this.feedLeftNow(); // a lease is only asked for outside an output event: feeding here is safe
    const giveBack = holdReads((this.pty as unknown as PtyInternals)._socket);
    if (!giveBack) return null;
    const lease = { borrower, giveBack, waiting: this.writeQueue.length > 0 };
    this.lease = lease;
    borrower.inputWaiting(lease.waiting);
    const host = this;
    const ended = () => host.lease !== lease;
    return {
      fd: this.masterFd() ?? -1,
      get paused() {
        return host.paused;
      },
      get midCharacter() {
        return host.chunker.held > 0;
      },
      feed: (bytes) => {
        if (!ended()) this.onRead(bytes);
      },
      leave: (bytes) => {
        if (ended() || this.exited) return;
        this.left.push(bytes);
      },
      dispose: () => {
        if (ended()) return;
        this.lease = null;
        if (this.left.length === 0 || this.exited) return this.giveReadsBack(giveBack);
        // Fed on the next turn (dispose may run inside an output event), and only then does node-pty read again.
        this.feedLeft.value = this.scheduler.setTimeout(() => {
          this.feedLeftNow();
          this.giveReadsBack(giveBack);
        }, NEXT_TURN_MS);
      },
    };
  }

  /** node-pty reads the master again, paused or not as the PTY is now. */
  private giveReadsBack(giveBack: () => void): void {
    if (this.exited) return;
    giveBack();
    this.syncSocketPause();
  }

  private feedLeftNow(): void {
    this.feedLeft.clear();
    const left = this.left;
    this.left = [];
    for (const bytes of left) this.onRead(bytes);
  }

  private syncSocketPause(): void {
    if (this.paused === this.socketPaused || this.lease) return;
    this.socketPaused = this.paused;
    if (this.paused) this.pty.pause();
    else this.pty.resume();
  }

  private queueBytes(buf: Uint8Array): void {
    if (buf.length === 0) return;
    this.writeQueue.push(buf);
    if (this.writeQueue.length === 1) this.flushWrites();
  }

  /** Writes queued input until it is all in or the PTY is full (then again on the next turn of the loop). */
  private flushWrites(): void {
    this.writeRetry.clear();
    const fd = this.masterFd();
    while (this.writeQueue.length > 0) {
      if (fd === null) {
        this.writeQueue.length = 0; // the PTY is gone: nobody will read it
        return;
      }
      const head = this.writeQueue[0]!;
      const n = this.writeMaster(fd, head);
      if (n === 'again') {
        // The program is not reading: try again after the loop has turned (node-pty does the same).
        this.writeRetry.value = this.scheduler.setTimeout(() => this.flushWrites(), NEXT_TURN_MS);
        return this.inputWaiting(true);
      }
      if (n === 'gone') {
        this.writeQueue.length = 0; // EIO and the like: the child side is gone, as node-pty drops it too
        break;
      }
      if (n < head.length) this.writeQueue[0] = head.subarray(n);
      else this.writeQueue.shift();
    }
    this.inputWaiting(false);
  }

  /** One write of the master: ours, or the lease's (which keeps the borrower's own typing out of it). */
  private writeMaster(fd: number, bytes: Uint8Array): number | 'again' | 'gone' {
    if (this.lease) {
      const n = this.lease.borrower.writePty(bytes);
      return n >= 0 ? n : n === -EAGAIN ? 'again' : 'gone';
    }
    try {
      return fs.writeSync(fd, bytes);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EAGAIN' ? 'again' : 'gone';
    }
  }

  private inputWaiting(waiting: boolean): void {
    const lease = this.lease;
    if (!lease || lease.waiting === waiting) return;
    lease.waiting = waiting;
    lease.borrower.inputWaiting(waiting);
  }

  /** The master fd while node-pty still has it open (it closes it when the child side goes away). */
  private masterFd(): number | null {
    const internals = this.pty as unknown as PtyInternals;
    if (this.exited || internals._socket?.destroyed !== false) return null;
    return internals.fd as number;
  }

  resize(cols: number, rows: number): void {
    if (this.exited) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The PTY closed between the exit check and here; the exit event follows.
    }
    this.lease?.borrower.resized();
  }

  /** No more output is read until resume() (the model's backlog bound): node-pty's, or a lease's, reads. */
  pause(): void {
    this.setPaused(true);
  }

  resume(): void {
    this.setPaused(false);
  }

  private setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (this.lease) this.lease.borrower.reading(!paused);
    else this.syncSocketPause();
  }

  /** Sends a signal to the child's whole process group (node-pty makes the child a group leader). */
  signal(sig: NodeJS.Signals): boolean {
    if (this.exited) return false;
    try {
      process.kill(-this.pty.pid, sig);
      return true;
    } catch {
      // No such group (the child left it, or is gone): signal the child alone.
      try {
        process.kill(this.pty.pid, sig);
        return true;
      } catch {
        return false; // gone: the exit event tells the rest
      }
    }
  }

  /**
   * SIGTERM to the group now, SIGKILL after the grace period; idempotent.
   * SIGHUP goes with SIGTERM: interactive shells ignore SIGTERM, and a hang-up
   * is what every terminal program expects when its terminal goes away.
   */
  terminate(graceMs = TERMINATE_GRACE_MS): void {
    if (this.exited || this.killTimer.value) return;
    this.signal('SIGTERM');
    this.signal('SIGHUP');
    this.killTimer.value = this.scheduler.setTimeout(() => this.signal('SIGKILL'), graceMs);
  }

  /** The terminal's foreground process group, from /proc (field 8 of stat). */
  foregroundGroup(): number | null {
    try {
      const stat = fs.readFileSync(`/proc/${this.pty.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const tpgid = Number(fields[5]);
      return tpgid > 0 ? tpgid : null;
    } catch {
      return null; // the child is gone, or no /proc: no foreground group to report
    }
  }

  private closeSlave(): void {
    if (this.slaveFd === null) return;
    try {
      fs.closeSync(this.slaveFd);
    } catch {
      // already closed
    }
    this.slaveFd = null;
  }
}
