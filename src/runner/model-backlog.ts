/**
 * The model's backlog: the output chunks and resizes not yet given to xterm, in order, and the
 * one bound on it that may pause the PTY. The model lags behind the output while it is hot and
 * catches up when it slows (src/runner/terminal-model.ts); this file only holds what waits.
 */

/**
 * Above BACKLOG_HIGH_BYTES of output waiting for the parser the PTY is paused, and resumed below
 * BACKLOG_LOW_BYTES. The bound only keeps memory in check: the output reaches clients at once
 * whatever the model's lag, so a burst of tens of MiB (a `cat` of a big file, a build log) goes
 * by at the speed of the PTY and the sockets, and the model catches up after it. The output
 * waits as the PTY's bytes (a chunk that is not valid UTF-8 waits as its text, counted in UTF-16
 * units, at most 2 bytes each): 32 MiB is about 1.2 s of parsing at xterm's 27 MiB/s from bytes,
 * and 32 MiB of memory (the ring holds 4 MiB of the same output as strings already). Resuming
 * 8 MiB lower (about 0.3 s of parsing) keeps a program that prints without end from flapping
 * the PTY on every chunk. Never for a client: a slow client has its own bound (client-conn.ts).
 */
export const BACKLOG_HIGH_BYTES = 32 * 1024 * 1024;
export const BACKLOG_LOW_BYTES = 24 * 1024 * 1024;

export interface BacklogBounds {
  high: number;
  low: number;
}

/** Output for xterm: the PTY's bytes, or the text of a chunk whose bytes are not valid UTF-8 (utf8-chunker.ts). */
export type ModelData = Uint8Array | string;

export type BacklogOp = { kind: 'data'; data: ModelData; nextSeq: number } | { kind: 'resize'; cols: number; rows: number };

/** Taken ops are compacted away once this many have gone, so the queue never shifts per chunk. */
const COMPACT_AFTER = 1024;

export class ModelBacklog {
  private ops: BacklogOp[] = [];
  private head = 0;
  private pending = 0;
  private pausedNow = false;

  constructor(
    private readonly bounds: BacklogBounds,
    /** Called with true when the PTY should pause, false when it may resume. */
    private readonly onPressure?: (paused: boolean) => void,
  ) {}

  /** Bytes (and UTF-16 units of text) of output waiting or inside xterm, not yet parsed. */
  get bytes(): number {
    return this.pending;
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  get isEmpty(): boolean {
    return this.head >= this.ops.length;
  }

  pushData(data: ModelData, nextSeq: number): void {
    this.pending += data.length;
    this.ops.push({ kind: 'data', data, nextSeq });
    this.updatePressure();
  }

  pushResize(cols: number, rows: number): void {
    this.ops.push({ kind: 'resize', cols, rows });
  }

  /**
   * The next thing for xterm: a resize alone, or output chunks joined in order up to `maxBytes`
   * (always at least one whole chunk, so every batch ends on a chunk boundary). Bytes are joined
   * with bytes and text with text: a batch is all one or all the other, so each goes to xterm's
   * decoder for its kind, and every chunk ends on a character boundary.
   */
  take(maxBytes: number): BacklogOp | null {
    const first = this.ops[this.head];
    if (!first) return null;
    this.head++;
    if (first.kind === 'resize') return this.compact(first);
    const text = isText(first.data);
    const parts = [first.data];
    let size = first.data.length;
    let nextSeq = first.nextSeq;
    for (let op = this.ops[this.head]; op?.kind === 'data' && isText(op.data) === text && size + op.data.length <= maxBytes; op = this.ops[this.head]) {
      parts.push(op.data);
      size += op.data.length;
      nextSeq = op.nextSeq;
      this.head++;
    }
    return this.compact({ kind: 'data', data: parts.length === 1 ? first.data : join(parts, text), nextSeq });
  }

  /** `n` bytes (units) of a taken batch are parsed. */
  parsed(n: number): void {
    this.pending -= n;
    this.updatePressure();
  }

  private compact<T>(result: T): T {
    if (this.head >= this.ops.length) {
      this.ops = [];
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER) {
      this.ops = this.ops.slice(this.head);
      this.head = 0;
    }
    return result;
  }

  private updatePressure(): void {
    const want = this.pausedNow ? this.pending > this.bounds.low : this.pending > this.bounds.high;
    if (want !== this.pausedNow) {
      this.pausedNow = want;
      this.onPressure?.(want);
    }
  }
}

const isText = (d: ModelData): d is string => typeof d === 'string';

function join(parts: ModelData[], text: boolean): ModelData {
  return text ? (parts as string[]).join('') : Buffer.concat(parts as Uint8Array[]);
}
