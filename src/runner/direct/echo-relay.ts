/**
 * The echo relay (docs/architecture.md, "The echo relay"): while a local client is attached with
 * direct output and direct input, a thread of the runner (src/runner/native/echo_relay.c) types
 * its plain keys into the program and writes the program's output to its terminal the moment
 * each is read, as tmux's server does in C, instead of waiting for the event loop to wake into
 * JavaScript twice per key. This class is the only one that talks to the thread: it says with
 * flags what the thread may do as things change (the model's pause, our own input waiting, the
 * client's terminal falling behind, a size to apply first), and takes what it read, in order,
 * back into the paths everything else goes through. Without the addon (not built, not Linux)
 * nothing changes: the event loop relays, as before.
 *
 * It is the fast path beside the one way a client's keys reach the program (src/runner/control/dispatch.ts:
 * the `input` row's gate, then SessionOps.type), and it exists only for the echo's latency. Per
 * key it skips all of that way, and it is safe because each step is done ahead, or after, with
 * the same result: the gate is asked before the thread may type (WRITE_PTY is set only while
 * mayTypeKeys says yes, and asked again whenever its answer can change: a hello again,
 * DirectTerminal.mayTypeChanged; the exit ends the relay first, PtyHost's exit); the detach key
 * and UTF-8 decoding are not needed (the thread types only plain ASCII with no byte a detach key
 * starts with, and hands any other read to direct input, which takes the one way); the client's
 * size is applied first (the thread stops at every resize until a key through JavaScript has
 * applied it: resized); our own input keeps its order (the thread stops while it waits, and it
 * is written through the thread's lock); the activity stamp and the attach note's key come
 * after, from the thread's count (keysTypedByRelay).
 */
import type { Disposable } from '../../core/lifetime.js';
import { loadAddon } from '../../state/native-addon.js';
import type { PtyBorrower, PtyLease } from '../pty/pty-host.js';

/** What the thread may do now (echo_relay.c says what each means). */
export const READ_PTY = 1;
export const WRITE_TTY = 2;
export const READ_TTY = 4;
export const WRITE_PTY = 8;

/** What one take() gives: every byte the thread read since the last, in order. */
export type Taken = [output: Buffer | null, written: number, typed: number, keys: Buffer | null, ptyEnd: number | null, keysEnd: number | null, terminalError: number | null];

/** The addon's functions (echo_relay.c). */
export interface NativeRelay {
  open(ptyFd: number, keysFd: number, terminalFd: number, stopBytes: Buffer, onWake: () => void): unknown;
  set(relay: unknown, flags: number): number;
  take(relay: unknown): Taken | undefined;
  writePty(relay: unknown, bytes: Uint8Array): number;
  close(relay: unknown): void;
}

/** Where the addon is built (npm's install runs node-gyp there), from dist/bundle (what runs), and from this file in src/runner/direct or dist/runner/direct. */
const ADDON_PATHS = ['../../src/runner/native/build/Release/echo_relay.node', '../../../src/runner/native/build/Release/echo_relay.node'];

let loaded: NativeRelay | string | undefined;

/** The addon, loaded on the first direct attach (an idle runner never holds it), or why it cannot be. */
function addon(): NativeRelay | string {
  if (loaded !== undefined) return loaded;
  if (process.platform !== 'linux') return (loaded = 'the echo relay is only built for Linux');
  const native = loadAddon<NativeRelay>(import.meta.url, ADDON_PATHS);
  return (loaded = typeof native === 'string' ? `the echo relay ${native}` : native);
}

/** The client's terminal, as the relay writes it (src/runner/direct/direct-terminal.ts). */
export interface RelayTerminal {
  /** The fd libuv writes the terminal on (the thread writes a dup of it). */
  readonly terminalFd: number;
  /** The thread may write output now: the client is live, nothing of ours is queued, no stop has begun. */
  readonly inSync: boolean;
  /** The next `n` bytes of output are on the terminal already. */
  shownAhead(n: number): void;
  /** A write of the thread's failed (the terminal closed): an errno name. */
  failed(why: string): void;
}

/** The client's keys, as the relay reads them (src/runner/direct/direct-input.ts and the input row's gate). */
export interface RelayKeys {
  /** The fd libuv reads the terminal on, no longer read by libuv while the relay is. */
  readonly keysFd: number;
  /** The bytes the thread must not type (every detach key's first byte): they go to read(). */
  readonly stopBytes: Buffer;
  /** The thread may type now: the `input` row's gate lets this client type, and no character is half read. */
  readonly mayType: boolean;
  readonly closed: boolean;
  /** The thread typed `n` bytes for the client (already in the PTY): the same stamp as a typed key. */
  typed(n: number): void;
  /** Keys the thread did not type, looked through as every read is (the detach key, characters). */
  read(bytes: Buffer): void;
  /** The terminal's input ended (end of file, an errno name). */
  ended(why: string): void;
  /** The relay is gone and the reader reads its own terminal (until then only the thread does: src/runner/direct/direct-input.ts). */
  readOwn(): void;
}

/** Output the relay's thread wrote to a terminal before it came through the event loop: skipped there as it comes. */
export class ShownAhead {
  private n = 0;

  get none(): boolean {
    return this.n === 0;
  }

  add(n: number): void {
    this.n += n;
  }

  reset(): void {
    this.n = 0;
  }

  /**
   * What of a chunk is not on the terminal yet. A chunk that is not valid UTF-8 (no `raw`) the
   * thread never writes, but one can begin with the lead bytes of a character the thread wrote
   * before the invalid byte came: the text is written whole then, and the terminal shows one
   * replacement character more.
   */
  rest(data: string, raw: Uint8Array | null): Uint8Array {
    if (!raw) {
      this.n = 0;
      return Buffer.from(data, 'utf8');
    }
    const skip = Math.min(this.n, raw.length);
    this.n -= skip;
    return raw.subarray(skip);
  }
}

/** What is left when the relay closes: output on the terminal that was not handed on yet, and keys nobody looked at. */
export interface RelayRest {
  shown: Buffer | null;
  keys: Buffer | null;
}

/** errno numbers as the runner log and the other paths name them (Linux). */
const ERRNO_NAMES: Readonly<Record<number, string>> = { 5: 'EIO', 9: 'EBADF', 12: 'ENOMEM', 32: 'EPIPE', 104: 'ECONNRESET' };
const errnoName = (n: number) => (n === -1 ? 'end of file' : (ERRNO_NAMES[n] ?? `errno ${n}`));

export class EchoRelay implements PtyBorrower, Disposable {
  private lease: PtyLease | null = null;
  private closed = false;
  private inputWaits = false;
  /** A resize happened since the client last typed through JavaScript: its next key must apply its size first. */
  private sizeChanged = false;

  /** The thread (echo_relay.c's relay), once it runs. */
  private handle: unknown = null;

  private constructor(
    private readonly native: NativeRelay,
    private readonly terminal: RelayTerminal,
    private readonly keys: RelayKeys,
  ) {}

  /** A relay between the lent PTY and the client's terminal, or why there is none (the event loop relays then). */
  static start(lend: (b: PtyBorrower) => PtyLease | null, terminal: RelayTerminal, keys: RelayKeys): EchoRelay | string {
    if (process.env.AGENT_BOARD_ECHO_RELAY === 'off') return 'turned off (AGENT_BOARD_ECHO_RELAY=off)';
    const native = addon();
    if (typeof native === 'string') return native;
    if (terminal.terminalFd < 0 || keys.keysFd < 0) return 'no terminal fd to relay on';
    const relay = new EchoRelay(native, terminal, keys);
    const lease = lend(relay);
    if (!lease) return 'the PTY cannot be lent (node-pty writes it, or its reads are not bytes)';
    try {
      relay.handle = native.open(lease.fd, keys.keysFd, terminal.terminalFd, keys.stopBytes, () => relay.wake());
    } catch (err) {
      lease.dispose();
      return `the echo relay cannot start: ${(err as Error).message}`;
    }
    relay.lease = lease;
    relay.sync();
    return relay;
  }

  /** What the thread may do, from where everything stands now. */
  sync(): void {
    if (this.closed || !this.lease || this.handle === null) return;
    let flags = 0;
    if (!this.lease.paused) flags |= READ_PTY;
    // Not while a character's first bytes wait in the chunker: they come out with the next read, here.
    if (this.terminal.inSync && !this.lease.midCharacter) flags |= WRITE_TTY;
    if (!this.keys.closed) {
      flags |= READ_TTY;
      if (this.keys.mayType && !this.inputWaits && !this.sizeChanged) flags |= WRITE_PTY;
    }
    this.native.set(this.handle, flags);
  }

  /** The thread read something (its wake, on the event loop): everything since the last take, handed on in order. */
  private wake(): void {
    try {
      this.drain();
    } catch (err) {
      // A bug of ours in a callback the addon cannot report: the client is dropped, and the runner log says why.
      this.terminal.failed(`the echo relay failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  private drain(): void {
    if (this.closed) return;
    const t = this.native.take(this.handle);
    if (!t) return this.sync();
    const [output, written, typed, keys, ptyEnd, keysEnd, terminalError] = t;
    if (output) {
      if (written > 0) this.terminal.shownAhead(written);
      this.lease?.feed(output);
    }
    if (typed > 0) this.keys.typed(typed);
    if (terminalError !== null) return this.terminal.failed(errnoName(terminalError)); // the terminal's owner closes us
    if (keys && !this.closed) {
      this.keys.read(keys);
      this.sizeChanged = false; // a key through JavaScript applied the client's size first
    }
    if (keysEnd !== null && !this.closed) return this.keys.ended(errnoName(keysEnd));
    if (ptyEnd !== null && !this.closed) return this.giveBack(); // node-pty reads again, and sees the same end
    this.sync();
  }

  // PtyBorrower: what the PTY tells us.

  writePty(bytes: Uint8Array): number {
    return this.closed ? -9 : this.native.writePty(this.handle, bytes);
  }

  reading(): void {
    this.sync();
  }

  inputWaiting(waiting: boolean): void {
    this.inputWaits = waiting;
    this.sync();
  }

  resized(): void {
    this.sizeChanged = true;
    this.sync();
  }

  /** The program is ending: every byte read is handed on now (we are in the PTY's exit event, not inside an output event). */
  end(): void {
    if (!this.closed) this.giveBack();
  }

  /** The relay stops here and now and node-pty reads again: the PTY's side ended, or the program is exiting. */
  private giveBack(): void {
    const rest = this.close();
    if (rest.output) {
      if (rest.written > 0) this.terminal.shownAhead(rest.written); // on the terminal already: not again
      this.lease?.feed(rest.output);
    }
    this.lease?.dispose();
    this.lease = null;
    if (rest.keys && !this.keys.closed) this.keys.read(rest.keys); // before anything the reader reads itself
    this.keys.readOwn();
  }

  /**
   * Stops the thread at once (joined: it writes nothing after this returns) and gives the PTY
   * back. What it had read and not handed on goes to the PTY's next turn (this may run inside
   * an output event); what of it is on the terminal, and the keys nobody looked at, are returned.
   */
  stop(): RelayRest {
    if (this.closed) return { shown: null, keys: null };
    const rest = this.close();
    if (rest.output) this.lease?.leave(rest.output);
    this.lease?.dispose();
    this.lease = null;
    const shown = rest.output && rest.written > 0 ? rest.output.subarray(0, rest.written) : null;
    return { shown, keys: rest.keys };
  }

  dispose(): void {
    this.stop();
  }

  private close(): { output: Buffer | null; written: number; keys: Buffer | null } {
    this.closed = true;
    if (this.handle === null) return { output: null, written: 0, keys: null };
    this.native.close(this.handle);
    const t = this.native.take(this.handle);
    return { output: t?.[0] ?? null, written: t?.[1] ?? 0, keys: t?.[3] ?? null };
  }
}
