/**
 * One connection to a runner, over its unix socket or any byte stream (ssh's stdio): hello first,
 * then frames out as `onMessage` events and, after the style of vscode-jsonrpc, a frame that cannot
 * be read as an `onError` event instead of a throw or silence.
 */
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Scheduler } from '../../core/clock.js';
import { BufferedEmitter, Emitter, LatchedEmitter, toDisposable, type Disposable, type DisposableStore, type Event } from '../../core/lifetime.js';
import { OFFERED_FRAMINGS, type Framing } from '../../core/protocol/binary-framing.js';
import { encodeFrame } from '../../core/protocol/frame-decoder.js';
import { PROTOCOL_VERSION } from '../../core/protocol/protocol.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { RunnerHello, RunnerMessage } from '../../core/protocol/runner-messages.js';
import { createReplyDecoder } from '../../core/protocol/reply-framing.js';
import { asMessage, utf8, type ProtocolError } from './connection-frames.js';

export type { ProtocolError } from './connection-frames.js';

/** How long a runner may take to answer hello before we call it unreachable. */
export const HELLO_TIMEOUT_MS = 3000;

export interface ConnectOptions {
  client: string;
  readOnly?: boolean;
  timeoutMs?: number;
  /** The hello's timeout, and the timers of whatever waits on this connection (acks, snapshots). */
  scheduler: Scheduler;
  /** The framings offered in the hello (default: binary1); [] asks for NDJSON, as a client from before framings did. */
  framings?: readonly Framing[];
  /**
   * Where the try is held (a RunnerLink's, src/client/link/runner-link.ts): released before the
   * hello, it abandons the try (the socket destroyed, the wait failed at once); after, the socket
   * is held there like the connection's other resources.
   */
  owner?: DisposableStore;
  /**
   * Messages written with the hello, in the same write, before its answer: a runner handles a
   * connection's messages in order (docs/protocol.md, "Pipelining"), so the attach's first
   * subscribe costs no round trip of its own. Only what needs nothing of the answer: no envelope
   * (a command's envelope carries the runner's generation).
   */
  pipelined?: readonly ClientMessage[];
}

/**
 * A connection to a runner. A bad frame (a runner bug: a line too long, not JSON, JSON that is no
 * message) fires `onError` and the connection carries on with the next frame: NDJSON resyncs at the
 * next newline, binary1 at the end the frame's length gives, and one unreadable frame must not cut
 * an attach or a board's status link. The one exception is a binary1 frame of an unknown type: a
 * length-prefixed stream cannot find its place again, so after its onError the connection closes
 * with an error saying why.
 * When the connection closes, `onClose` fires; everything waiting on it (ControlChannel's acks,
 * fetchSnapshot, requestExplanation) listens for that and fails with an error, never silence.
 */
export class RunnerConnection implements Disposable {
  /** Messages that came before anyone listened go to the first listener. */
  private readonly messages = new BufferedEmitter<RunnerMessage>();
  private readonly closes = new LatchedEmitter<Error | null>();
  private readonly batches = new Emitter<void>();
  /** Bad frames, those before the hello included, the first listener hearing those that came before it. */
  private readonly errors = new BufferedEmitter<ProtocolError>();
  /** True while the messages of one socket read are being delivered (onBatchEnd follows). */
  private inBatch = false;

  private constructor(
    readonly socket: Duplex,
    readonly hello: RunnerHello,
    readonly scheduler: Scheduler,
    /** What went with the hello (ConnectOptions.pipelined); a stand-in connection has none. */
    readonly pipelined?: readonly ClientMessage[],
  ) {}

  /** Connects to a runner's unix socket. */
  static open(sockPath: string, opts: ConnectOptions): Promise<RunnerConnection> {
    return RunnerConnection.over(net.createConnection(sockPath), opts);
  }

  /**
   * Speaks the protocol over any byte stream: a unix socket, or the stdio of
   * `ssh box agent-board bridge <session>` for a session on another machine.
   */
  static async over(socket: Duplex, opts: ConnectOptions): Promise<RunnerConnection> {
    // Bytes, not text: after the runner's hello the frames may be binary1 (reply-framing.ts).
    const decoder = createReplyDecoder(utf8);
    let start: Start = { phase: 'hello' };
    /** The hello's wait, while it is on. */
    let waiting: { greeted(h: RunnerHello): void; failed(e: Error): void } | null = null;
    /** Bad frames before the connection exists (nobody can listen yet): told to the first onError listener. */
    const early: ProtocolError[] = [];
    /** Messages that came after the hello in the same read (answers to pipelined ones), before the connection exists. */
    const afterHello: RunnerMessage[] = [];
    // Released before the hello (a link abandoning the try), the socket goes and the wait fails.
    opts.owner?.add(toDisposable(() => socket.destroy()));

    socket.on('data', (chunk: Buffer | string) => {
      try {
        for (const frame of decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) {
          const msg = asMessage(frame);
          if (!msg.ok) {
            if (start.phase === 'open') start.conn.errors.fire(msg.error);
            else early.push(msg.error);
            if (frame.ok === false && frame.code === 'bad_frame' && frame.fatal) {
              const why = new Error(`the runner's stream cannot be read on: ${frame.message}`);
              if (start.phase === 'open') socket.destroy(why);
              else waiting?.failed(why);
              return;
            }
            continue;
          }
          switch (start.phase) {
            case 'open':
              start.conn.deliver(msg.value);
              break;
            case 'greeted':
              afterHello.push(msg.value); // the connection hands them to its first listener
              break;
            case 'hello':
              if (msg.value.type === 'hello') {
                start = { phase: 'greeted' };
                waiting?.greeted(msg.value);
              } else if (msg.value.type === 'error') waiting?.failed(new Error(msg.value.message));
              break;
          }
        }
      } finally {
        if (start.phase === 'open') start.conn.deliveredBatch();
      }
    });
    const hello = await new Promise<RunnerHello>((resolve, reject) => {
      const timer = opts.scheduler.setTimeout(() => {
        socket.destroy();
        reject(new Error('the runner did not answer'));
      }, opts.timeoutMs ?? HELLO_TIMEOUT_MS);
      waiting = {
        greeted: (h) => {
          timer.dispose();
          resolve(h);
        },
        failed: (e) => {
          timer.dispose();
          socket.destroy();
          reject(e);
        },
      };
      socket.once('error', (e) => waiting?.failed(e));
      socket.once('close', () => waiting?.failed(new Error('the runner closed the connection')));
      // A socket holds what is written before it connects; a pipe takes it at once.
      const framings = opts.framings ?? OFFERED_FRAMINGS;
      const hello = encodeFrame({ type: 'hello', protocol: PROTOCOL_VERSION, client: opts.client, readOnly: opts.readOnly, framing: framings.length ? [...framings] : undefined });
      socket.write(hello + (opts.pipelined ?? []).map(encodeFrame).join(''));
    });
    waiting = null;
    socket.removeAllListeners('error');
    socket.removeAllListeners('close');
    const c = new RunnerConnection(socket, hello, opts.scheduler, opts.pipelined ?? []);
    c.errors.hold(early);
    c.messages.hold(afterHello);
    start = { phase: 'open', conn: c };
    socket.on('error', (err) => c.markClosed(err));
    socket.on('close', () => c.markClosed(null));
    return c;
  }

  /** The framing of what the runner sends after its hello: binary1 when it picked it, NDJSON from an older runner. */
  get framing(): Framing {
    return this.hello.framing ?? 'ndjson';
  }

  get closed(): boolean {
    return this.closes.fired;
  }

  send(message: ClientMessage): void {
    if (!this.closed && this.socket.writable) this.socket.write(encodeFrame(message));
  }

  /** Every message after the hello; the first listener also gets those that came before it. */
  readonly onMessage: Event<RunnerMessage> = this.messages.event;

  /**
   * Fires after the messages of one read from the socket have all been
   * delivered: a client that batches work per read (the attach client's
   * terminal writes) can do it then, without waiting for a later tick.
   */
  readonly onBatchEnd: Event<void> = (fn) => this.batches.event(fn);

  /** A frame from the runner that could not be read (the connection carries on). */
  readonly onError: Event<ProtocolError> = this.errors.event;

  /** err is null for an orderly close. Fires at once if already closed. */
  readonly onClose: Event<Error | null> = this.closes.event;

  /** The protocol's orderly close: ends our side once what was written is sent. */
  close(): void {
    this.socket.end();
  }

  /** Drops the connection at once (onClose still fires). */
  dispose(): void {
    this.socket.destroy();
  }

  /** A listener called now will hear onBatchEnd before this read is done. */
  get delivering(): boolean {
    return this.inBatch;
  }

  private deliver(m: RunnerMessage): void {
    this.inBatch = true;
    this.messages.fire(m);
  }

  private deliveredBatch(): void {
    if (!this.inBatch) return;
    this.inBatch = false;
    this.batches.fire();
  }

  private markClosed(err: Error | null): void {
    if (this.closes.fired) return;
    try {
      this.closes.fire(err);
    } finally {
      this.messages.dispose();
      this.closes.dispose();
      this.batches.dispose();
      this.errors.dispose();
    }
  }
}

/**
 * Where a connection is in its start: waiting for the runner's hello; greeted (the hello came, and
 * what follows it waits for the connection to be made); open (frames go to the connection).
 */
type Start = { phase: 'hello' } | { phase: 'greeted' } | { phase: 'open'; conn: RunnerConnection };
