import { MAX_FRAME_BYTES } from './protocol.js';

/** One decoded line: a parsed value, or why the line was dropped. */
export type DecodedFrame =
  | { ok: true; value: unknown }
  | { ok: false; code: 'frame_too_large' | 'malformed_json'; message: string };

export interface FrameDecoder {
  /** Feed the next chunk; returns every complete frame it finished, in order. */
  push(chunk: string): DecodedFrame[];
  /** UTF-8 bytes held for an unfinished frame; never more than the limit. */
  readonly pending: number;
}

/**
 * Incremental decoder for newline-delimited JSON. Never throws: a bad line
 * becomes an error value and decoding carries on with the next line. A line
 * over the limit is dropped as it streams (we keep none of it), so a peer
 * cannot make us buffer more than `maxFrameBytes`.
 *
 * The limit is on a frame's text in UTF-8 bytes, not counting its "\n" or
 * "\r\n" terminator, and gives the same answer however the input is chunked
 * (chunks may even split a surrogate pair).
 */
export function createFrameDecoder(maxFrameBytes: number = MAX_FRAME_BYTES): FrameDecoder {
  let buffered = ''; // the unfinished line, minus a trailing CR held back in `heldCR`
  let bufferedBytes = 0; // UTF-8 length of `buffered`
  let afterHigh = false; // `buffered` ends in a high surrogate still waiting for its pair
  let heldCR = false; // a CR came last: the terminator if LF follows, else part of the line
  let discarding = false; // inside a line already refused; skip to its end

  const tooLarge = (): DecodedFrame => ({
    ok: false,
    code: 'frame_too_large',
    message: `frame over ${maxFrameBytes} bytes refused`,
  });

  const add = (text: string) => {
    buffered += text;
    const r = countUtf8(text, afterHigh);
    bufferedBytes += r.bytes;
    afterHigh = r.afterHigh;
  };

  /** Appends text (without LF) to the unfinished line. */
  const append = (text: string) => {
    if (text === '') return;
    if (heldCR) {
      heldCR = false;
      add('\r');
    }
    if (text.endsWith('\r')) {
      heldCR = true;
      text = text.slice(0, -1);
    }
    add(text);
  };

  const reset = () => {
    buffered = '';
    bufferedBytes = 0;
    afterHigh = false;
    heldCR = false;
  };

  /** The line just ended (a held CR was its terminator). */
  const finishLine = (): DecodedFrame | null => {
    const line = buffered;
    const bytes = bufferedBytes;
    reset();
    if (bytes > maxFrameBytes) return tooLarge();
    if (/^[ \t\r]*$/.test(line)) return null; // blank: JSON whitespace only
    try {
      return { ok: true, value: JSON.parse(line) };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, code: 'malformed_json', message: `malformed JSON: ${why}` };
    }
  };

  return {
    get pending() {
      return bufferedBytes;
    },
    push(chunk: string): DecodedFrame[] {
      const out: DecodedFrame[] = [];
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf('\n', start);
        const piece = chunk.slice(start, nl === -1 ? chunk.length : nl);
        if (nl === -1) {
          if (!discarding) {
            append(piece);
            if (bufferedBytes > maxFrameBytes) {
              reset();
              discarding = true;
              out.push(tooLarge());
            }
          }
          return out;
        }
        start = nl + 1;
        if (discarding) {
          discarding = false; // the oversized frame ends here; its error was already reported
          continue;
        }
        append(piece);
        const frame = finishLine();
        if (frame) out.push(frame);
      }
    },
  };
}

/**
 * UTF-8 length of `text` as a peer would encode it; a lone surrogate counts as
 * U+FFFD (3 bytes). `afterHigh` says the text continues one that ended in an
 * unpaired high surrogate, so a pair split across chunks counts 4, not 6.
 */
function countUtf8(text: string, afterHigh: boolean): { bytes: number; afterHigh: boolean } {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xdc00 && c <= 0xdfff && afterHigh) n += 1; // completes a pair: 3 + 1 = 4
    else n += 3;
    afterHigh = c >= 0xd800 && c <= 0xdbff;
  }
  return { bytes: n, afterHigh };
}

/** UTF-8 byte length of a string without Node's Buffer (lone surrogates count as U+FFFD). */
export function utf8Length(s: string): number {
  return countUtf8(s, false).bytes;
}

/** One frame on the wire. */
export function encodeFrame(message: unknown): string {
  return JSON.stringify(message) + '\n';
}
