/**
 * Bounded history of output chunks, each with a sequence number that only
 * grows. Lets a client that lost its connection resume from where it was
 * without a full snapshot, as long as the chunks it missed are still held.
 */

/** Defaults follow the runner of the seeds: 2048 chunks or 4 MiB, whichever fills first. */
export const DEFAULT_RING_CHUNKS = 2048;
export const DEFAULT_RING_BYTES = 4 * 1024 * 1024;

export interface RingChunk { seq: number; data: string }

export class OutputRing {
  private chunks: RingChunk[] = [];
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

  get byteSize(): number {
    return this.bytes;
  }

  push(data: string): RingChunk {
    const chunk = { seq: this.next++, data };
    this.chunks.push(chunk);
    this.bytes += data.length;
    while (this.size > 1 && (this.size > this.maxChunks || this.bytes > this.maxBytes)) {
      const old = this.chunks[this.head++]!;
      this.bytes -= old.data.length;
    }
    // Compact now and then so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
    return chunk;
  }

  /** True when every chunk from `seq` on is still here (seq == nextSeq: nothing missed). */
  holds(seq: number): boolean {
    return seq >= this.firstSeq && seq <= this.next;
  }

  /** Chunks from `seq` on, or null when some of them were already dropped. */
  since(seq: number): RingChunk[] | null {
    if (!this.holds(seq)) return null;
    return this.chunks.slice(this.head + (seq - this.firstSeq));
  }
}
