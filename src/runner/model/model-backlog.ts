/**
 * The model's backlog: the output chunks and resizes not yet given to xterm, in order, and the
 * one bound on it that may pause the PTY. The model lags behind the output while it is hot and
 * catches up when it slows (src/runner/model/terminal-model.ts); this file only holds what waits.
 */
import { isAscii } from 'node:buffer';

/**
 * Above BACKLOG_HIGH_BYTES of output waiting for the parser the PTY is paused, and resumed below
 * BACKLOG_LOW_BYTES. The bound only keeps memory in check: the output reaches clients at once
 * whatever the model's lag, so a burst of tens of MiB (a `cat` of a big file, a build log) goes
 * by at the speed of the PTY and the sockets, and the model catches up after it. The output
 * waits as the PTY's bytes (a chunk that is not valid UTF-8 waits as its text, counted in UTF-16
 * units, at most 2 bytes each): 32 MiB is about 1.2 s of parsing at xterm's 27 MiB/s from bytes,
 * and 32 MiB of memory (the ring holds 4 MiB of the same output as strings already). Resuming
 * 8 MiB lower (about 0.3 s of parsing) keeps a program that prints without end from flapping
 * the PTY on every chunk. Never for a client: a slow client has its own bound (stream-state.ts).
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
  private total = 0;
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

  /** Bytes (units) of output ever pushed. */
  get received(): number {
    return this.total;
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  get isEmpty(): boolean {
    return this.head >= this.ops.length;
  }

  pushData(data: ModelData, nextSeq: number): void {
    this.pending += data.length;
    this.total += data.length;
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

  /**
   * Drops the output at the head of the backlog that cannot show in the model, and returns how
   * many bytes went: the longest run of inert bytes (ASCII but ESC, SO, SI and BS) that starts at
   * the head and is followed, still within inert bytes, by a CR and then at least `keepLines`
   * more line feeds. Call it only where the terminal would parse the head in its ground state
   * with a whole-screen scroll region (TerminalModel.trySkip). Then the dropped run touches
   * nothing but the grid and the cursor: without ESC no mode, attribute, title or tab stop
   * changes, without SO/SI no charset, and the other controls xterm acts on (BEL, HT, CR, LF, VT,
   * FF) only ring or move the cursor (BS could move it up a row, with reverse wraparound). The
   * CR and line feeds after the run, parsed as usual, put the cursor at column 0 of the last
   * row and scroll every line the run wrote out of the history. The cut is just after a line
   * feed, so the rest of its chunk starts on a character boundary and keeps its chunk's seq.
   */
  skipInert(keepLines: number): number {
    // Where the inert run from the head ends: op `endOp`, before its byte `endAt` (or at the end of the backlog).
    let endOp = this.head;
    let endAt = 0;
    for (; endOp < this.ops.length; endOp++) {
      const op = this.ops[endOp]!;
      if (op.kind !== 'data' || isText(op.data)) break;
      endAt = firstNotInert(asBuffer(op.data));
      if (endAt >= 0) break;
    }
    // Back from there: the last keepLines + 2 line feeds; the cut is after the earliest, a CR must come before the next.
    let o = endOp;
    let before = endOp < this.ops.length && endAt >= 0 ? endAt : -1;
    const found: Array<{ op: number; at: number }> = [];
    while (found.length < keepLines + 2) {
      if (before <= 0) {
        if (--o < this.head) return 0;
        before = (this.ops[o] as { data: Uint8Array }).data.length;
        continue;
      }
      const at = asBuffer((this.ops[o] as { data: Uint8Array }).data).lastIndexOf(LF, before - 1);
      if (at < 0) {
        before = 0;
        continue;
      }
      found.push({ op: o, at });
      before = at;
    }
    const cut = found[found.length - 1]!;
    const next = found[found.length - 2]!;
    if (!this.crBetween(cut, next)) return 0;
    let dropped = 0;
    for (; this.head < cut.op; this.head++) dropped += (this.ops[this.head] as { data: Uint8Array }).data.length;
    const op = this.ops[cut.op] as { kind: 'data'; data: Uint8Array; nextSeq: number };
    const from = cut.at + 1;
    dropped += from;
    if (from === op.data.length) this.head++;
    else this.ops[cut.op] = { kind: 'data', data: op.data.subarray(from), nextSeq: op.nextSeq };
    this.pending -= dropped;
    this.compact(null);
    this.updatePressure();
    return dropped;
  }

  /** Whether a CR comes after the byte at `a` and before the byte at `b` (both bytes ops). */
  private crBetween(a: { op: number; at: number }, b: { op: number; at: number }): boolean {
    for (let o = a.op; o <= b.op; o++) {
      const d = asBuffer((this.ops[o] as { data: Uint8Array }).data);
      const at = d.indexOf(CR, o === a.op ? a.at + 1 : 0);
      if (at >= 0 && (o < b.op || at < b.at)) return true;
    }
    return false;
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

const CR = 0x0d;
const LF = 0x0a;
/** The ASCII bytes a skipped run may not hold: ESC (every sequence), SO and SI (the charset), BS (reverse wraparound). */
const NOT_INERT = [0x1b, 0x0e, 0x0f, 0x08];

const asBuffer = (d: Uint8Array): Buffer => (Buffer.isBuffer(d) ? d : Buffer.from(d.buffer, d.byteOffset, d.length));

/** The first byte a skipped run may not hold (-1: none): the searches are native, the byte loop only for a chunk past ASCII. */
function firstNotInert(d: Buffer): number {
  let first = -1;
  for (const b of NOT_INERT) {
    const at = d.indexOf(b);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  if (!isAscii(d)) {
    const end = first < 0 ? d.length : first;
    for (let i = 0; i < end; i++) {
      if (d[i]! >= 0x80) return i;
    }
  }
  return first;
}

function join(parts: ModelData[], text: boolean): ModelData {
  return text ? (parts as string[]).join('') : Buffer.concat(parts as Uint8Array[]);
}
