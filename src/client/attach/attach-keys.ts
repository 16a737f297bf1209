/**
 * Who reads the user's keys during an attach: the attach client, from its input stream, or the
 * runner, from the terminal itself (direct input, docs/protocol.md "Direct input"). While the
 * runner reads, the client's stream is paused (libuv stops polling the fd, so the two never race
 * for a key); raw mode stays set, since it belongs to the device and the client restores it.
 * The stream is held before the request goes out and released when the runner says it will not
 * read (refused, an old runner) or can no longer read (the connection closed).
 */
import { MutableDisposable, toDisposable, type Disposable } from '../../core/lifetime.js';

/** The part of the attach's input stream this needs (process.stdin, or a test's stand-in). */
export interface KeyStream {
  on(event: 'data', fn: (chunk: string) => void): unknown;
  off(event: 'data', fn: (chunk: string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
  /** What the stream has read but not yet given out (a board's typeahead put back). */
  readableLength?: number;
  read?(): unknown;
  unshift?(chunk: string): unknown;
}

/**
 * Who reads the keys. `waiting`: nobody yet (the attach is being set up, the stream paused);
 * `client`: the client, from its stream; `runner`: the runner, from the terminal (or it is about to
 * be asked), the stream paused until it stops, when the keys go back to `then`; `ended`: nobody
 * here reads again.
 */
type KeyReader = { who: 'waiting' } | { who: 'client' } | { who: 'runner'; then: 'waiting' | 'client' } | { who: 'ended' };

export class AttachKeys implements Disposable {
  private reader: KeyReader = { who: 'waiting' };
  /** Our listener on the stream, while we listen. */
  private readonly listener = new MutableDisposable();

  constructor(
    private readonly input: KeyStream,
    private readonly onKeys: (chunk: string) => void,
  ) {}

  /** The runner reads the keys (or has been asked to). */
  get runnerReads(): boolean {
    return this.reader.who === 'runner';
  }

  /** Listens, still paused: keys flow once `go()` is called, unless the runner reads them. */
  listen(): void {
    if (this.listener.value || this.reader.who === 'ended') return;
    const input = this.input;
    const onKeys = this.onKeys;
    input.on('data', onKeys);
    this.listener.value = toDisposable(() => input.off('data', onKeys));
  }

  /** The attach is set up: keys flow to `onKeys` from now on, unless the runner reads them. */
  go(): void {
    const r = this.reader;
    if (r.who === 'waiting') {
      this.reader = { who: 'client' };
      this.input.resume();
    } else if (r.who === 'runner') {
      this.reader = { who: 'runner', then: 'client' };
    }
  }

  /**
   * The runner is about to be asked to read the keys: stop reading, and give out what the stream
   * already holds first (those keys were typed before anything the runner will read). Only what is
   * buffered is read: a read() of an empty stream would start reading the terminal again.
   */
  hold(): void {
    const r = this.reader;
    if (r.who === 'ended') return;
    if (r.who !== 'runner') this.reader = { who: 'runner', then: r.who };
    this.input.pause();
    if (!this.listener.value || !this.input.read) return;
    while ((this.input.readableLength ?? 0) > 0) {
      if (this.input.read() === null) break; // a read that returns data gives it to `onKeys` as a 'data' event
    }
  }

  /** The runner does not read the keys (refused, an old runner, the connection closed): the client reads them again. */
  release(): void {
    const r = this.reader;
    if (r.who !== 'runner') return;
    this.reader = { who: r.then };
    if (r.then === 'client') this.input.resume();
  }

  /** The runner stopped reading at the detach key: what it read after the key goes back to the stream, for its next reader. */
  putBack(keys: string): void {
    if (keys) this.input.unshift?.(keys);
  }

  dispose(): void {
    this.reader = { who: 'ended' };
    this.listener.dispose();
    this.input.pause();
  }
}
