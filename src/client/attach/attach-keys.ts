/**
 * Who reads the user's keys during an attach: the attach client, from its input stream, or the
 * runner, from the terminal itself (direct input, docs/protocol.md "Direct input"). While the
 * runner reads, the client's stream is paused (libuv stops polling the fd, so the two never race
 * for a key); raw mode stays set, since it belongs to the device and the client restores it.
 * The stream is held before the request goes out and released when the runner says it will not
 * read (refused, an old runner) or can no longer read (the connection closed).
 */
import type { Disposable } from '../../core/lifetime.js';

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

export class AttachKeys implements Disposable {
  private listening = false;
  private flowing = false;
  private held = false;
  private ended = false;

  constructor(
    private readonly input: KeyStream,
    private readonly onKeys: (chunk: string) => void,
  ) {}

  /** The runner reads the keys (or has been asked to). */
  get runnerReads(): boolean {
    return this.held;
  }

  /** Listens, still paused: keys flow once `go()` is called, unless the runner reads them. */
  listen(): void {
    if (this.listening || this.ended) return;
    this.listening = true;
    this.input.on('data', this.onKeys);
  }

  /** The attach is set up: keys flow to `onKeys` from now on, unless the runner reads them. */
  go(): void {
    this.flowing = true;
    if (!this.held && !this.ended) this.input.resume();
  }

  /**
   * The runner is about to be asked to read the keys: stop reading, and give out what the stream
   * already holds first (those keys were typed before anything the runner will read). Only what is
   * buffered is read: a read() of an empty stream would start reading the terminal again.
   */
  hold(): void {
    if (this.ended) return;
    this.held = true;
    this.input.pause();
    if (!this.listening || !this.input.read) return;
    while ((this.input.readableLength ?? 0) > 0) {
      if (this.input.read() === null) break; // a read that returns data gives it to `onKeys` as a 'data' event
    }
  }

  /** The runner does not read the keys (refused, an old runner, the connection closed): the client reads them again. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    if (this.flowing && !this.ended) this.input.resume();
  }

  /** The runner stopped reading at the detach key: what it read after the key goes back to the stream, for its next reader. */
  putBack(keys: string): void {
    if (keys) this.input.unshift?.(keys);
  }

  dispose(): void {
    this.ended = true;
    if (this.listening) this.input.off('data', this.onKeys);
    this.listening = false;
    this.input.pause();
  }
}
