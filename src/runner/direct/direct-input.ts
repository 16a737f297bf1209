/**
 * Direct input: the runner reads a local client's keys from the client's own terminal itself, as
 * tmux's server reads its clients' terminals, instead of the client reading them and sending
 * them on the socket (docs/protocol.md, "Direct input"). Only beside direct output, whose checks
 * it repeats for its own descriptor (src/runner/direct/tty-check.ts). What it reads is typed into the
 * program exactly as a client's `input` message; the client's detach key ends the reading: the
 * keys before it are typed, the fd is closed before anything else happens, and the keys after it
 * go back to the client for whoever reads the terminal next.
 */
import fs from 'node:fs';
import tty from 'node:tty';
import type { Disposable } from '../../core/lifetime.js';
import type { ClientMessage, DirectRequest } from '../../core/protocol/client-messages.js';
import { bootId } from '../../state/proc-identity.js';
import type { ClientConn } from '../clients/client-conn.js';
import type { Logger } from '../log.js';
import { findDetachKey, type DetachKey } from '../../core/terminal/detach-key.js';
import { streamFd, ttyReaderInto } from '../node-internals.js';
import { adoptTtyStream, openClientTerminal, type Self } from './tty-check.js';
import { Utf8Chunker } from '../pty/utf8-chunker.js';

interface InputDeps {
  /** Keys read, to be typed as the client's `input` would be. */
  typed(data: string): void;
  /** The same keys as bytes, without a message (the read's buffer, reused after): false when they were not typed (then `typed` says why). */
  typedBytes(bytes: Uint8Array): boolean;
  /** The detach key was read (the fd is closed already): `after` is what came after it in the same read. */
  detached(after: string): void;
  /** The terminal ended (EOF, EIO): the fd is closed already. */
  failed(why: string): void;
}

/** What one read of the terminal takes at most: a key is a few bytes, a paste comes in several reads. */
const READ_BUFFER_BYTES = 16 * 1024;

/** A tty stream that hands each read's bytes straight to `onBytes`: nothing between a key and the PTY (node-internals.ts ttyReaderInto). */
function keyStream(fd: number, onBytes: (bytes: Buffer) => void): tty.ReadStream {
  return ttyReaderInto(fd, Buffer.alloc(READ_BUFFER_BYTES), onBytes);
}

/** A reader on the client's terminal; `dispose()` closes its fd at once (keys not read yet stay for the next reader). */
export class DirectInput implements Disposable {
  private closed = false;
  private readonly key: DetachKey;
  /** As the client reads: a character split between reads is joined. */
  private readonly utf8 = new Utf8Chunker();
  /** Every byte that starts a detach key's sequence: a read with none of them cannot hold one. */
  private readonly detachStarts: ReadonlySet<number>;

  constructor(
    private readonly stream: tty.ReadStream,
    detachKeys: readonly string[],
    private readonly d: InputDeps,
  ) {
    this.key = { label: 'detach', sequences: [...detachKeys] };
    this.detachStarts = new Set(detachKeys.map((s) => s.charCodeAt(0)));
    stream.on('end', () => this.fail('end of file'));
    stream.on('error', (err: NodeJS.ErrnoException) => this.fail(err.code ?? err.message));
    // Not resumed here: the echo relay's thread reads the fd when it runs, and a pause() in the
    // tick of a resume() does not stop libuv (the resume's read(0) comes on the next tick and
    // starts it anyway). Both read then, and a key libuv took waited for the event loop while
    // the thread typed the next one first. The owner calls resumeOwnReads when no relay runs.
  }

  /**
   * One read's bytes (the buffer is reused by the next read: used now). A read of plain ASCII
   * with no byte that starts a detach key, and no character left unfinished before it (what
   * nearly every key is), is typed as it is; any other is decoded and looked through first.
   */
  bytes(data: Buffer): void {
    if (this.closed) return;
    if (this.utf8.held === 0 && this.plain(data) && this.d.typedBytes(data)) return;
    const out = this.utf8.push(data);
    if (out) this.read(out.text);
  }

  /** Its fd is closed (or about to be): nothing more is read. */
  get ended(): boolean {
    return this.closed;
  }

  /** A character is half read: the next read must come through bytes() to finish it. */
  get halfRead(): boolean {
    return this.utf8.held > 0;
  }

  /** The fd libuv reads the terminal on. */
  get fd(): number {
    return streamFd(this.stream) ?? -1;
  }

  /** Every byte a detach key starts with. */
  get detachStartBytes(): Buffer {
    return Buffer.from([...this.detachStarts]);
  }

  /** libuv reads the fd (again): nobody else does. */
  resumeOwnReads(): void {
    if (!this.closed) this.stream.resume();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    // destroy closes the fd now (uv_close), not at its callback: nothing more is read from here on.
    this.stream.destroy();
  }

  /** ASCII only, and none of it the start of a detach key (whose sequences all begin with an ASCII byte: a control byte or ESC). */
  private plain(data: Buffer): boolean {
    for (let i = 0; i < data.length; i++) {
      const b = data[i]!;
      if (b >= 0x80 || this.detachStarts.has(b)) return false;
    }
    return true;
  }

  private read(chunk: string): void {
    if (this.closed) return;
    const hit = this.key.sequences.length ? findDetachKey(this.key, chunk) : null;
    if (!hit) return this.d.typed(chunk);
    const before = chunk.slice(0, hit.index);
    if (before) this.d.typed(before);
    this.dispose();
    this.d.detached(chunk.slice(hit.index + hit.length));
  }

  private fail(why: string): void {
    if (this.closed) return;
    this.dispose();
    this.d.failed(why);
  }
}

/**
 * Opens the client's terminal for reading (the same checks as for its output, on its input fd),
 * or says why not; it is read once its owner says (resumeOwnReads). The fd is checked again once
 * libuv holds it, which reopens a pseudo-terminal's slave by name (uv_tty_init,
 * src/runner/direct/tty-check.ts adoptTtyStream).
 */
function openDirectInput(req: DirectRequest, self: Self, d: InputDeps): DirectInput | string {
  if (!req.input) return 'not asked for';
  const opened = openClientTerminal(req, self, 'read');
  if (!opened.ok) return opened.reason;
  let stream: tty.ReadStream;
  let input: DirectInput | null = null;
  try {
    stream = keyStream(opened.fd, (bytes) => input?.bytes(bytes));
  } catch (err) {
    fs.closeSync(opened.fd);
    return `cannot read the terminal: ${(err as Error).message}`;
  }
  const changed = adoptTtyStream(stream, opened.fd, opened.stat, req.path);
  if (changed) {
    stream.destroy();
    return changed;
  }
  input = new DirectInput(stream, req.input.detachKeys, d);
  return input;
}

/** What holds the reader (the client's direct-output sink, src/runner/direct/direct-terminal.ts): its one end closes it. */
export interface KeyOwner {
  readKeys(input: Disposable): void;
  detachKeyRead(after: string): void;
  inputFailed(why: string): void;
}

/**
 * Direct input beside direct output: the runner reads the client's keys from its terminal
 * (refused to a read-only client, which may not type). The reader when it does, not reading yet
 * (the echo relay's thread reads instead, or the caller resumes it); null when it does not (the
 * client keeps reading them, and the log says why).
 */
export function offerInput(
  c: ClientConn,
  req: DirectRequest,
  uid: number,
  sink: KeyOwner,
  d: { log: Logger; handle(c: ClientConn, msg: ClientMessage): void; typeKeys(c: ClientConn, bytes: Uint8Array): boolean },
): DirectInput | null {
  const refuse = (reason: string) => {
    d.log(`client ${c.id}: direct input from ${req.path} refused: ${reason}`);
    return null;
  };
  if (c.readOnly) return refuse('the client attached read-only');
  const input = openDirectInput(req, { uid, bootId: bootId() }, {
    typed: (data) => d.handle(c, { type: 'input', data }),
    typedBytes: (bytes) => d.typeKeys(c, bytes),
    detached: (after) => {
      sink.detachKeyRead(after);
      d.handle(c, { type: 'detach' });
    },
    failed: (why) => sink.inputFailed(why),
  });
  if (typeof input === 'string') return refuse(input);
  sink.readKeys(input);
  d.log(`client ${c.id}: input comes straight from ${req.path}`);
  return input;
}
