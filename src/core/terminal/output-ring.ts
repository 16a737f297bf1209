/**
 * Bounded history of output chunks, each with a sequence number that only
 * grows. Lets a client that lost its connection resume from where it was
 * without a full snapshot, as long as the chunks it missed are still held.
 */
import { utf8Length } from '../protocol/frame-decoder.js';

/**
 * How much a runner keeps: 2048 chunks or 4 MiB, whichever fills first (a few screens of a busy
 * agent's output, enough to bridge a reconnect of seconds; a client further behind gets a
 * snapshot). Bytes are UTF-8 bytes, what a replay puts on the wire.
 */
export const DEFAULT_RING_CHUNKS = 2048;
export const DEFAULT_RING_BYTES = 4 * 1024 * 1024;

export interface RingChunk { seq: number; data: string }

/** Stands in for an evicted chunk until compaction, so its data can be collected. */
const EVICTED: RingChunk = Object.freeze({ seq: -1, data: '' });

export class OutputRing {
  private chunks: RingChunk[] = [];
  private sizes: number[] = []; // UTF-8 bytes of chunks[i]
  private head = 0; // index of the oldest live chunk in `chunks`
  private bytes = 0;
  private next: number;

  constructor(
    private readonly maxChunks = DEFAULT_RING_CHUNKS,
    private readonly maxBytes = DEFAULT_RING_BYTES,
    firstSeq = 0,
  ) {
    this.next = firstSeq;
  }

  /** The seq the next chunk will get. */
  get nextSeq(): number {
    return this.next;
  }

  /** The oldest seq still held (equals nextSeq when empty). */
  get firstSeq(): number {
    return this.next - this.size;
  }

  get size(): number {
    return this.chunks.length - this.head;
  }

  /** UTF-8 bytes of the chunks held. */
  get byteSize(): number {
    return this.bytes;
  }

  /** `bytes`: data's UTF-8 length, when the caller knows it (the runner has the PTY's bytes), else counted. */
  push(data: string, bytes: number = utf8Length(data)): RingChunk {
    const chunk = { seq: this.next++, data };
    this.chunks.push(chunk);
    this.sizes.push(bytes);
    this.bytes += bytes;
    // Always keep the newest chunk, however big.
    while (this.size > 1 && (this.size > this.maxChunks || this.bytes > this.maxBytes)) {
      this.bytes -= this.sizes[this.head]!;
      this.chunks[this.head++] = EVICTED;
    }
    // Compact now and then so the arrays do not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    return chunk;
  }

  /** True when every chunk from `seq` on is still here (seq == nextSeq: nothing missed). */
  holds(seq: number): boolean {
    return Number.isInteger(seq) && seq >= this.firstSeq && seq <= this.next;
  }

  /** Chunks from `seq` on, or null when some of them were already dropped. */
  since(seq: number): RingChunk[] | null {
    if (!this.holds(seq)) return null;
    return this.chunks.slice(this.head + (seq - this.firstSeq));
  }
}
