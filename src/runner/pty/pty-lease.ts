/**
 * The PTY lent to the echo relay (src/runner/direct/echo-relay.ts) while a direct client is attached:
 * node-pty stops reading the master, what the relay's thread reads comes back through the lease
 * to be handled as node-pty's reads are, and PtyHost tells the borrower what changes under it.
 * When the lease ends where output cannot be handled at once (inside an output event), what the
 * thread had read waits for the next turn, and node-pty reads again only after it.
 */
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';

/** What borrows the PTY: it reads the output and types keys itself, and hears what changes under it. */
export interface PtyBorrower {
  /** Input written by us (prompts, other clients' keys) while the borrower may type too: the bytes taken, or -errno. */
  writePty(bytes: Uint8Array): number;
  /** The PTY is paused (the model's backlog bound; false) or resumed (true). */
  reading(on: boolean): void;
  /** Our input waits for the program (true) or is all in again (false): keys must not pass it. */
  inputWaiting(waiting: boolean): void;
  /** The size changed: a key typed now must come after the client's own size is applied. */
  resized(): void;
  /** The PTY is ending (its exit comes next): everything read is fed now, and the lease is given back. */
  end(): void;
}

/** The PTY as lent: its master fd, and the way back for what the borrower reads. */
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

export interface LendingDeps {
  scheduler: Scheduler;
  /** A read of the master, as node-pty's reads are handled. */
  read(bytes: Buffer): void;
  /** Stops node-pty's reads; the undo starts them again (pty-internals.ts holdReads), or null when it cannot. */
  holdReads(): (() => void) | null;
  /** node-pty's reads are back: the socket is paused or resumed as the PTY is now. */
  readsBack(): void;
  masterFd(): number | null;
  paused(): boolean;
  midCharacter(): boolean;
  inputWaiting(): boolean;
  exited(): boolean;
}

/** The next turn of the event loop, where output a lease left is fed. */
const NEXT_TURN_MS = 0;

/** One lease at a time, and what an ended one left. */
export class PtyLending implements Disposable {
  private current: { borrower: PtyBorrower; giveBack: () => void } | null = null;
  private left: Buffer[] = [];
  private readonly feedLeft = new MutableDisposable();

  constructor(private readonly d: LendingDeps) {}

  get borrower(): PtyBorrower | null {
    return this.current?.borrower ?? null;
  }

  /** The PTY lent to `borrower`, or null (another lease, or node's socket is not as expected). Never called inside an output event. */
  lend(borrower: PtyBorrower): PtyLease | null {
    if (this.current) return null;
    this.feedLeftNow(); // outside an output event: feeding here is safe
    const giveBack = this.d.holdReads();
    if (!giveBack) return null;
    const mine = { borrower, giveBack };
    this.current = mine;
    borrower.inputWaiting(this.d.inputWaiting());
    const d = this.d;
    const ended = () => this.current !== mine;
    return {
      fd: d.masterFd() ?? -1,
      get paused() {
        return d.paused();
      },
      get midCharacter() {
        return d.midCharacter();
      },
      feed: (bytes) => {
        if (!ended()) d.read(bytes);
      },
      leave: (bytes) => {
        if (!ended() && !d.exited()) this.left.push(bytes);
      },
      dispose: () => {
        if (ended()) return;
        this.current = null;
        if (this.left.length === 0 || d.exited()) return this.readsBack(giveBack);
        // Fed on the next turn (this may run inside an output event), and only then does node-pty read again.
        this.feedLeft.value = d.scheduler.setTimeout(() => {
          this.feedLeftNow();
          this.readsBack(giveBack);
        }, NEXT_TURN_MS);
      },
    };
  }

  /** What an ended lease left, handled now (before the exit, or before another lease). */
  feedLeftNow(): void {
    this.feedLeft.clear();
    const left = this.left;
    this.left = [];
    for (const bytes of left) this.d.read(bytes);
  }

  /** The PTY is going away: the borrower's own owner closes it. */
  dispose(): void {
    this.current = null;
    this.left = [];
    this.feedLeft.dispose();
  }

  private readsBack(giveBack: () => void): void {
    if (this.d.exited()) return;
    giveBack();
    this.d.readsBack();
  }
}
