import { MAX_FRAME_BYTES } from './protocol.js';

/** One decoded line: a parsed value, or why the line was dropped. */
export type DecodedFrame =
  | { ok: true; value: unknown }
  | { ok: false; code: 'frame_too_large' | 'malformed_json'; message: string };

export interface FrameDecoder {
  /** Feed the next chunk; returns every complete frame it finished, in order. */
  push(chunk: string): DecodedFrame[];
  /** Bytes held for an unfinished frame. */
  readonly pending: number;
}

/**
 * Incremental decoder for newline-delimited JSON. Never throws: a bad line
 * becomes an error value and decoding carries on with the next line. A line
 * over the limit is dropped as it streams (we keep none of it), so a peer
 * cannot make us buffer more than `maxFrameBytes`.
 *
 * Lengths are counted in UTF-16 code units, an upper bound within 3x of bytes;
 * we count bytes exactly only when the cheap bound is ambiguous.
 */
export function createFrameDecoder(maxFrameBytes: number = MAX_FRAME_BYTES): FrameDecoder {
  let buffered = '';
  let discarding = false;

  const tooLarge = (): DecodedFrame => ({
    ok: false,
    code: 'frame_too_large',
    message: `frame over ${maxFrameBytes} bytes refused`,
  });

  const parseLine = (line: string): DecodedFrame | null => {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') return null;
    if (line.length * 3 > maxFrameBytes && utf8Length(line) > maxFrameBytes) return tooLarge();
    try {
      return { ok: true, value: JSON.parse(line) };
    } catch (err) {
      return { ok: false, code: 'malformed_json', message: `malformed JSON: ${(err as Error).message}` };
    }
  };

  return {
    get pending() {
      return buffered.length;
    },
    push(chunk: string): DecodedFrame[] {
      const out: DecodedFrame[] = [];
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf('\n', start);
        if (nl === -1) break;
        const piece = chunk.slice(start, nl);
        start = nl + 1;
        if (discarding) {
          discarding = false; // the oversized frame ends here; its error was already reported
          continue;
        }
        const frame = parseLine(buffered + piece);
        buffered = '';
        if (frame) out.push(frame);
      }
      if (!discarding) {
        buffered += chunk.slice(start);
        if (buffered.length > maxFrameBytes && utf8Length(buffered) > maxFrameBytes) {
          buffered = '';
          discarding = true;
          out.push(tooLarge());
        }
      }
      return out;
    },
  };
}

/** UTF-8 byte length of a string without Node's Buffer. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** One frame on the wire. */
export function encodeFrame(message: unknown): string {
  return JSON.stringify(message) + '\n';
}
