import type net from 'node:net';
import { createFrameDecoder, encodeFrame, type FrameDecoder } from '../core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../core/protocol/protocol.js';
import type { TermSize } from '../core/protocol/size.js';

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

let nextClientId = 1;

export class ClientConn {
  readonly id = nextClientId++;
  readonly decoder: FrameDecoder = createFrameDecoder();
  greeted = false;
  readOnly = false;
  name = '';
  stream: StreamState = 'none';
  /** The next output seq this client should get. */
  cursor = 0;
  /** The size this client last asked for (interactive clients only). */
  size: TermSize | null = null;
  /** Wants a `status` push on every host record change (the board does). */
  watchesStatus = false;
  /** When the client last typed or resized, for the latest-active resize policy. */
  lastActive = 0;

  constructor(readonly socket: net.Socket) {}

  get closed(): boolean {
    return this.socket.destroyed || !this.socket.writable;
  }

  get backlog(): number {
    return this.socket.writableLength;
  }

  send(message: RunnerMessage): void {
    if (this.closed) return;
    this.socket.write(encodeFrame(message));
  }

  /** Send a frame already encoded (the same output goes to every client). */
  sendEncoded(frame: string): void {
    if (this.closed) return;
    this.socket.write(frame);
  }

  /** Send, then close our side once it is flushed. */
  finish(message: RunnerMessage): void {
    if (this.closed) return;
    this.socket.end(encodeFrame(message));
  }
}
