/**
 * One client connection of the runner, as tmux keeps its clients: who it said it is and what it
 * asked for (its ClientProfile: client-profile.ts), where it is in the terminal stream (none,
 * snapshot, live, lagging: stream-state.ts) and where its output goes (its socket, or its
 * terminal: direct output). Its state is private and changes only through the methods below; a
 * stream change the table does not allow is refused (an error value, and a line in the runner
 * log), so a bug shows up as a log line instead of a client that silently stops getting output.
 */
import type net from 'node:net';
import { DisposableStore, toDisposable, type Disposable } from '../../core/lifetime.js';
import type { Framing } from '../../core/protocol/binary-framing.js';
import { createFrameDecoder, type FrameDecoder } from '../../core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import type { Logger } from '../log.js';
import { encodeFor, type SharedFrame } from './wire-framing.js';
import type { OutputSink } from './output-sink.js';
import { ClientProfile } from './client-profile.js';
import { streamTransition, type StreamState, type Transition } from './stream-state.js';

/** One output chunk as the ring holds it. */
export interface Chunk {
  seq: number;
  data: string;
}

/** What a connection knows of its attach note (src/runner/stream/attach-hint.ts). */
export interface AttachHintLike extends Disposable {
  readonly text: string;
  readonly showing: boolean;
  output(): void;
  key(): void;
}

let nextClientId = 1;

export class ClientConn extends ClientProfile implements Disposable {
  readonly id = nextClientId++;
  readonly decoder: FrameDecoder = createFrameDecoder();
  private state: StreamState = 'none';
  /** The next output seq this client should get (live only). */
  private next = 0;
  /** The attach's note over its first frames, while it is due (src/runner/stream/attach-hint.ts). */
  private note: AttachHintLike | null = null;
  /** How frames to this client are written: NDJSON until its hello's reply picked another. */
  private wire: Framing = 'ndjson';
  /** Output goes here instead of the socket (direct output), or null. */
  private sink: OutputSink | null = null;
  private readonly store = new DisposableStore();

  constructor(
    readonly socket: net.Socket,
    private readonly log: Logger,
  ) {
    super();
  }

  get stream(): StreamState {
    return this.state;
  }

  /** The next output seq a live client gets. */
  get cursor(): number {
    return this.next;
  }

  /** The note over this client's frames while it is due, or null. */
  get hint(): AttachHintLike | null {
    return this.note?.showing ? this.note : null;
  }

  /** A note over this client's frames from now (a new subscribe's; null: none); the old one goes. */
  showHint(h: AttachHintLike | null): void {
    this.note?.dispose();
    this.note = h;
  }

  get closed(): boolean {
    return this.socket.destroyed || !this.socket.writable;
  }

  get backlog(): number {
    return this.sink ? this.sink.backlog : this.socket.writableLength;
  }

  /** The runner writes this client's output to its terminal (direct output). */
  get direct(): boolean {
    return this.sink !== null;
  }

  /** Output goes to `sink` from now on (null: the socket); true when it replaced (and dropped) another. */
  outputTo(sink: OutputSink | null): boolean {
    const old = this.sink;
    old?.dispose();
    this.sink = sink;
    return old !== null;
  }

  /**
   * Direct output ends: the writer stops, and once the kernel has what it wrote, the client is
   * told (`direct_off`) and output would go to the socket again. At once when there is none.
   */
  async handBack(timeoutMs: number): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    const r = await sink.stop(timeoutMs);
    if (this.sink === sink) this.sink = null;
    sink.dispose();
    this.send({ type: 'direct_off', altScreen: r.altScreen, cut: r.cut, ...(r.keys ? { keys: r.keys } : {}) });
  }

  /** hello (again): a client that turns read-only may no longer type, whatever types for it (the echo relay) is told. */
  override greet(hello: { readOnly: boolean; name: string }): void {
    super.greet(hello);
    this.sink?.mayTypeChanged();
  }

  /** The framing this client's frames are written in. */
  get framing(): Framing {
    return this.wire;
  }

  /** Every frame from now on goes in `framing` (called right after the hello's reply, which went in the old one). */
  useFraming(framing: Framing): void {
    this.wire = framing;
  }

  /** A snapshot is being made for this client: output waits in the ring meanwhile. */
  beginSnapshot(): Transition {
    return this.to('snapshot');
  }

  /** On the live stream from `fromSeq`: `missed` (from the ring, in order) is sent now, then every chunk as it comes. */
  goLive(fromSeq: number, missed: Iterable<Chunk>): Transition {
    const t = this.to('live');
    if (!t.ok) return t;
    this.next = fromSeq;
    this.sink?.live();
    for (const chunk of missed) this.sendChunk(chunk);
    return t;
  }

  /**
   * The client cannot keep up: nothing more is sent; `drained` runs once its socket has
   * emptied (then it gets a fresh snapshot), unless the connection is gone or disposed first.
   */
  lag(drained: () => void): Transition {
    const t = this.to('lagging');
    if (!t.ok) return t;
    const onDrain = () => {
      this.store.release(sub);
      if (this.state === 'lagging' && !this.closed) drained();
    };
    let sub: Disposable;
    if (this.sink) {
      sub = this.store.add(this.sink.onceDrained(onDrain));
    } else {
      this.socket.once('drain', onDrain);
      sub = this.store.add(toDisposable(() => this.socket.off('drain', onDrain)));
    }
    return t;
  }

  /**
   * The live stream's next chunk (`frame` is it encoded once per framing, shared by every client):
   * sent when this client is live and at that seq; false when it is not for this client.
   */
  pushLive(chunk: Chunk, frame: SharedFrame): boolean {
    if (this.state !== 'live' || this.next !== chunk.seq) return false;
    this.sendEncoded(frame);
    this.next = chunk.seq + 1;
    return true;
  }

  /** The live stream's next chunk for a direct client (nothing is encoded; `raw`: its bytes, if they are its text's UTF-8): false when it is not for this client. */
  pushDirect(chunk: Chunk, raw: Uint8Array | null = null): boolean {
    if (!this.sink || this.state !== 'live' || this.next !== chunk.seq) return false;
    this.sink.write(chunk.data, raw);
    this.next = chunk.seq + 1;
    return true;
  }

  /** A snapshot's screen frame: to the client's terminal, or in a snapshot_screen frame. */
  sendScreen(frame: string): void {
    if (this.sink) this.sink.screen(frame);
    else this.send({ type: 'snapshot_screen', data: frame });
  }

  /** What a live client has not seen yet (the ring's tail at exit). */
  catchUp(chunks: Iterable<Chunk>): void {
    if (this.state !== 'live') return;
    for (const chunk of chunks) this.sendChunk(chunk);
  }

  send(message: RunnerMessage): void {
    if (this.closed) return;
    this.socket.write(encodeFor(this.wire, message));
  }

  /** Send a message encoded once for every client (the same output goes to all of them), in this client's framing. */
  sendEncoded(frame: SharedFrame): void {
    if (this.closed) return;
    this.socket.write(frame.encoded(this.wire));
  }

  /** Send, then close our side once it is flushed. */
  finish(message: RunnerMessage): void {
    if (this.closed) return;
    this.socket.end(encodeFor(this.wire, message));
  }

  /** Registers what lives as long as this connection (its socket listeners). */
  hold<T extends Disposable>(d: T): T {
    return this.store.add(d);
  }

  /** The connection is done with: listeners released; a socket not already ending is destroyed. */
  dispose(): void {
    this.store.dispose();
    this.showHint(null);
    this.outputTo(null);
    if (!this.socket.writableEnded && !this.socket.destroyed) this.socket.destroy();
  }

  private sendChunk(chunk: Chunk): void {
    if (this.sink) this.sink.write(chunk.data);
    else this.send({ type: 'output', seq: chunk.seq, data: chunk.data });
    this.next = chunk.seq + 1;
  }

  private to(next: StreamState): Transition {
    const t = streamTransition(this.state, next);
    if (!t.ok) {
      this.log(`client ${this.id}: ${t.message}; refused`);
      return t;
    }
    const left = this.state === 'live' && next !== 'live';
    this.state = next;
    if (left) this.sink?.notLive();
    return t;
  }
}
