/**
 * The PTY's bytes cut into output chunks that end on a character boundary, each with its text.
 * A read from the PTY can stop inside a multi-byte UTF-8 character; the 1 to 3 bytes of such an
 * unfinished character are held and put in front of the next read (or given out alone at the
 * exit, `flush`). So a chunk's bytes and its text are the same output: the text is what the
 * ring, the replays and the socket clients get, and when the bytes are valid UTF-8 (`raw`) the
 * model parses them and the direct terminal and binary1 frames carry them as they are, with no
 * decode and re-encode on the way.
 */
import { isUtf8 } from 'node:buffer';

/** One output chunk: its text, and its bytes when they are exactly that text's UTF-8. */
export interface PtyOutput {
  readonly text: string;
  /**
   * The chunk's bytes when they are valid UTF-8, so `text` is their exact decoding and either
   * may stand for the other. Null when they are not (Buffer's decoder turned some bytes into
   * U+FFFD, which a byte parser such as xterm's may read differently): then the text is the
   * output everywhere, as it was before bytes were carried.
   */
  readonly raw: Uint8Array | null;
}

const isContinuation = (c: number) => (c & 0xc0) === 0x80;

/** The length of the character a lead byte starts (2-4), or 0 for a byte that starts no multi-byte character. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Where the last whole character of `b` ends: b.length, unless b ends with the first 1-3 bytes
 * of a multi-byte character (a lead byte and fewer continuation bytes than it needs), whose
 * start is returned. Bytes that cannot start or continue a character are left in: no later
 * byte can make them valid, so they decode the same wherever the cut is.
 */
export function wholeCharsEnd(b: Uint8Array): number {
  const n = b.length;
  for (let k = n - 1; k >= 0 && k >= n - 3; k--) {
    const c = b[k]!;
    if (isContinuation(c)) continue;
    const len = sequenceLength(c);
    return len > 0 && k + len > n ? k : n;
  }
  return n;
}

function chunkOf(bytes: Buffer): PtyOutput {
  return { text: bytes.toString('utf8'), raw: isUtf8(bytes) ? bytes : null };
}

/** Cuts the PTY's reads at character boundaries; one per PTY. */
export class Utf8Chunker {
  private carry: Buffer | null = null;

  /** The next read's chunk (null when all of it is held: the start of one character). */
  push(data: Buffer): PtyOutput | null {
    let b = data;
    if (this.carry) {
      b = Buffer.concat([this.carry, data]);
      this.carry = null;
    }
    const end = wholeCharsEnd(b);
    if (end < b.length) {
      this.carry = Buffer.from(b.subarray(end)); // a copy: the read's whole buffer is not kept for 3 bytes
      b = b.subarray(0, end);
    }
    return b.length > 0 ? chunkOf(b) : null;
  }

  /** The held bytes of an unfinished character as a last chunk (the PTY has closed: nothing will finish it). */
  flush(): PtyOutput | null {
    const c = this.carry;
    this.carry = null;
    return c ? chunkOf(c) : null;
  }

  /** Bytes held for an unfinished character (0-3). */
  get held(): number {
    return this.carry?.length ?? 0;
  }
}
