/**
 * One child in a PTY (node-pty): its output as chunks of bytes and text, our input for it
 * (src/runner/pty/pty-input.ts), its exit, and the PTY lent to the echo relay while a direct client
 * is attached (src/runner/pty/pty-lease.ts). What this uses of node-pty's insides is in
 * src/runner/pty/pty-internals.ts.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as NodePty from 'node-pty';
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import { TERMINATE_GRACE_MS } from '../../core/session-timings.js';
import { sendSignal, type ProcessTarget } from '../../state/process/signal.js';
import { terminate, type Termination } from '../../state/process/terminate.js';
import { signalName, type ChildExit } from './child-exit.js';
import { beforeDestroy, canWriteDirectly, drainMaster, holdReads, internalsOf, openMasterFd, slavePath, undoDecoding, type PtyInternals } from './pty-internals.js';
import { PtyInput } from './pty-input.js';
import { PtyLending, type PtyBorrower, type PtyLease } from './pty-lease.js';
import { Utf8Chunker, type PtyOutput } from './utf8-chunker.js';

export type { PtyOutput } from './utf8-chunker.js';
export type { ChildExit } from './child-exit.js';
export type { PtyBorrower, PtyLease } from './pty-lease.js';

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
 * One child in a PTY, with the exit-time output loss fixed: libuv on Node 20 takes POLLHUP plus a
 * short read as end of file while the PTY still holds data. Holding our own fd on the slave side
 * keeps the master from ever seeing the hang-up; node-pty then reads until its exit timer, and we
 * close the slave when the exit is reported.
 */
export class PtyHost implements Disposable {
  private readonly pty: NodePty.IPty;
  private slaveFd: number | null = null;
  private readonly store = new DisposableStore();
  /** The terminate under way (its SIGKILL timer), ended by the exit. */
  private readonly ending = this.store.add(new MutableDisposable<Termination>());
  private exited: ChildExit | null = null;
  private readonly exitEmitter = this.store.add(new Emitter<ChildExit>());
  /** Input is written to the master fd by us (pty-input.ts); false: node-pty's own write. */
  private readonly direct: boolean;
  private readonly input: PtyInput;
  private readonly chunker = new Utf8Chunker();
  private readonly outputEmitter = this.store.add(new Emitter<PtyOutput>());
  /** Reads come as bytes (node-pty's decoding undone): only then can they be lent. */
  private readonly rawReads: boolean;
  private paused = false;
  /** What node-pty's socket was last told (pause/resume), which a lease leaves alone. */
  private socketPaused = false;
  private readonly lending: PtyLending;
  private readonly onRead: (data: string | Buffer) => void;
  private readonly internals: PtyInternals;
  private readonly scheduler: Scheduler;

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
    this.internals = internalsOf(this.pty);
    this.rawReads = undoDecoding(this.internals);
    const ptsName = slavePath(this.internals);
    if (ptsName) {
      try {
        this.slaveFd = fs.openSync(ptsName, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
      } catch {
        this.slaveFd = null; // the child may already be gone; nothing to hold open
      }
    }
    this.direct = canWriteDirectly(this.internals);
    this.onRead = (data: string | Buffer) => {
      // A string: the decoding could not be undone (undoDecoding), so the read is text alone.
      const out = typeof data === 'string' ? { text: data, raw: null } : this.chunker.push(data);
      if (out) this.outputEmitter.fire(out);
    };
    this.input = this.store.add(
      new PtyInput({
        scheduler: opts.scheduler,
        masterFd: () => (this.exited ? null : openMasterFd(this.internals)),
        borrowed: () => {
          const b = this.lending.borrower;
          return b ? (bytes) => b.writePty(bytes) : null;
        },
        waitingChanged: (waiting) => this.lending.borrower?.inputWaiting(waiting),
      }),
    );
    this.lending = this.store.add(
      new PtyLending({
        scheduler: opts.scheduler,
        read: this.onRead,
        holdReads: () => holdReads(this.internals),
        readsBack: () => this.syncSocketPause(),
        masterFd: () => openMasterFd(this.internals),
        paused: () => this.paused,
        midCharacter: () => this.chunker.held > 0,
        inputWaiting: () => this.input.waiting,
        exited: () => this.exited !== null,
      }),
    );
    this.store.add(this.pty.onData(this.onRead));
    // node-pty drops what the PTY still holds 200 ms after the child's exit (the slave we hold keeps
    // its socket from closing first): a runner busier than that, on a loaded machine, lost the end of
    // the output. It is read first (a lease's borrower reads for itself: pty-lease.ts).
    beforeDestroy(this.internals, () => {
      if (this.rawReads && !this.lending.borrower) drainMaster(this.internals);
    });
    this.store.add(
      this.pty.onExit(({ exitCode, signal }) => {
        // All output before the exit: what an ended lease left (the older), then what the lease holds now.
        this.lending.feedLeftNow();
        this.lending.borrower?.end();
        // node-pty reports the exit after the last read: an unfinished character is all that can be left.
        const last = this.chunker.flush();
        if (last) this.outputEmitter.fire(last);
        this.closeSlave();
        this.input.clear();
        this.ending.clear();
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

  /** Input for the program: ours (pty-input.ts), or node-pty's own write without a usable master fd. */
  write(data: string): void {
    if (this.exited) return;
    if (!this.direct) {
      this.pty.write(data);
      return;
    }
    this.input.write(Buffer.from(data, 'utf8'), true);
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
    this.input.write(bytes);
  }

  /**
   * The PTY's reads and our input lent to `borrower` (the echo relay) until the lease is
   * disposed (pty-lease.ts). Null when it cannot be lent: no direct writes, reads that are not
   * bytes, the program gone, another lease, or a node whose socket this does not know.
   */
  lend(borrower: PtyBorrower): PtyLease | null {
    if (this.exited || !this.direct || !this.rawReads) return null;
    return this.lending.lend(borrower);
  }

  /** node-pty's socket paused or resumed as the PTY is now (a lease leaves it alone: its borrower reads). */
  private syncSocketPause(): void {
    if (this.paused === this.socketPaused || this.lending.borrower) return;
    this.socketPaused = this.paused;
    if (this.paused) this.pty.pause();
    else this.pty.resume();
  }

  resize(cols: number, rows: number): void {
    if (this.exited) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The PTY closed between the exit check and here; the exit event follows.
    }
    this.lending.borrower?.resized();
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
    const borrower = this.lending.borrower;
    if (borrower) borrower.reading(!paused);
    else this.syncSocketPause();
  }

  /**
   * Sends a signal to the child's whole process group (node-pty makes the child a group leader),
   * or to the child alone when it left its group. False: gone (the exit event tells the rest).
   */
  signal(sig: NodeJS.Signals): boolean {
    if (this.exited) return false;
    return sendSignal(this.group(), sig).kind === 'sent';
  }

  private group(): ProcessTarget {
    return { group: this.pty.pid, orLeader: true };
  }

  /**
   * SIGTERM to the group now, SIGKILL after the grace period; idempotent.
   * SIGHUP goes with SIGTERM: interactive shells ignore SIGTERM, and a hang-up
   * is what every terminal program expects when its terminal goes away.
   */
  terminate(graceMs = TERMINATE_GRACE_MS): void {
    if (this.exited || this.ending.value) return;
    this.ending.value = terminate(this.group(), { scheduler: this.scheduler, signals: ['SIGTERM', 'SIGHUP'], graceMs, exited: this.onExit });
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
