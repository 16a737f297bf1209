/**
 * One client connection of the runner, as tmux keeps its clients: who it said it is (hello), where
 * it is in the terminal stream (none, snapshot, live, lagging) and what it asked for (its size,
 * status pushes). Its state is private and changes only through the methods below; a stream
 * change the table does not allow is refused (an error value, and a line in the runner log), so
 * a bug shows up as a log line instead of a client that silently stops getting output.
 */
import type net from 'node:net';
import { DisposableStore, toDisposable, type Disposable } from '../core/lifetime.js';
import type { Framing } from '../core/protocol/binary-framing.js';
import { createFrameDecoder, type FrameDecoder } from '../core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../core/protocol/runner-messages.js';
import { clampSize, type TermSize } from '../core/protocol/size.js';
import type { Logger } from './log.js';
import { encodeFor, type SharedFrame } from './wire-framing.js';
import type { OutputSink } from './output-sink.js';

/**
 * A client's output backlog beyond this (bytes queued in our socket) means it
 * cannot keep up: we drop what it has not been sent and give it a fresh
 * snapshot once it drains, as tmux does. The bound scales with the screen so a
 * big terminal is not judged by a small one's standard (tmux: 8 x cols x rows).
 */
export const MIN_CLIENT_BACKLOG = 1024 * 1024;
export const clientBacklogLimit = (cols: number, rows: number) => Math.max(MIN_CLIENT_BACKLOG, 8 * cols * rows);

/** Where a client is in the terminal stream. */
export type StreamState =
  | 'none' // has not subscribed
  | 'snapshot' // a snapshot is being prepared; output waits in the ring
  | 'live' // gets every chunk from `cursor` on
  | 'lagging'; // fell behind; gets a fresh snapshot when its socket drains

/**
 * The stream changes a client may make. A snapshot may start over from anywhere (a new
 * subscribe, the ring losing what a snapshot needed, a drained laggard); live comes from a
 * snapshot's end or a replay; only a live client can fall behind.
 */
const LEGAL: Readonly<Record<StreamState, readonly StreamState[]>> = {
  none: ['snapshot', 'live'],
  snapshot: ['snapshot', 'live'],
  live: ['snapshot', 'live', 'lagging'],
  lagging: ['snapshot', 'live'],
};

export type Transition = { ok: true } | { ok: false; message: string };

/** The guard every stream change goes through. */
export function streamTransition(from: StreamState, to: StreamState): Transition {
  return LEGAL[from].includes(to) ? { ok: true } : { ok: false, message: `stream ${from} -> ${to} is not a legal change` };
}

/** One output chunk as the ring holds it. */
export interface Chunk {
  seq: number;
  data: string;
}

/** What a connection knows of its attach note (src/runner/attach-hint.ts). */
export interface AttachHintLike extends Disposable {
  readonly text: string;
  readonly showing: boolean;
  output(): void;
  key(): void;
}

let nextClientId = 1;

export class ClientConn implements Disposable {
  readonly id = nextClientId++;
  readonly decoder: FrameDecoder = createFrameDecoder();
  private hello: { readOnly: boolean; name: string } | null = null;
  private state: StreamState = 'none';
  /** The next output seq this client should get (live only). */
  private next = 0;
  private wanted: TermSize | null = null;
  private statusPushes = false;
  private viewSize: TermSize | null = null;
  private activeAt = 0;
  private saidDetach = false;
  /** The attach's note over its first frames, while it is due (src/runner/attach-hint.ts). */
  private note: AttachHintLike | null = null;
  /** How frames to this client are written: NDJSON until its hello's reply picked another. */
  private wire: Framing = 'ndjson';
  /** Output goes here instead of the socket (direct output), or null. */
  private sink: OutputSink | null = null;
  private readonly store = new DisposableStore();

  constructor(
    readonly socket: net.Socket,
    private readonly log: Logger,
  ) {}

  get greeted(): boolean {
    return this.hello !== null;
  }

  get readOnly(): boolean {
    return this.hello?.readOnly ?? false;
  }

  get name(): string {
    return this.hello?.name ?? '';
  }

  get stream(): StreamState {
    return this.state;
  }

  /** The next output seq a live client gets. */
  get cursor(): number {
    return this.next;
  }

  /** The size this client last asked for (interactive clients only). */
  get size(): TermSize | null {
    return this.wanted;
  }

  /** Wants a `status` push on every host record change (the board does). */
  get watchesStatus(): boolean {
    return this.statusPushes;
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

  /** The client asked to leave (`detach`), rather than its connection dropping (it may reconnect). */
  get detached(): boolean {
    return this.saidDetach;
  }

  /** It asked to leave. */
  detach(): void {
    this.saidDetach = true;
  }

  /** When the client last typed or resized (ms since the epoch), for the latest-active resize policy. */
  get lastActive(): number {
    return this.activeAt;
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

  /** hello: who the client is. A second hello says it again (the last one counts). */
  greet(hello: { readOnly: boolean; name: string }): void {
    this.hello = { ...hello };
  }

  /** The framing this client's frames are written in. */
  get framing(): Framing {
    return this.wire;
  }

  /** Every frame from now on goes in `framing` (called right after the hello's reply, which went in the old one). */
  useFraming(framing: Framing): void {
    this.wire = framing;
  }

  /** Status pushes from now on; `view` (when given) is this watcher's own terminal size, the last one kept. */
  watchStatus(view?: TermSize): void {
    this.statusPushes = true;
    if (view) this.viewSize = clampSize(view.cols, view.rows);
  }

  /** The watcher's own terminal size, offered for when no attach holds the size (src/runner/size-policy.ts); null: none. */
  get view(): TermSize | null {
    return this.viewSize;
  }

  /** The client typed or resized at `at`. */
  touch(at: number): void {
    this.activeAt = at;
  }

  /** The client's own size, asked for at `at`. */
  want(size: TermSize, at: number): void {
    this.wanted = size;
    this.activeAt = at;
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
