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
  // The UTF-8 length of `buffered` is counted only when it is asked for or
  // could matter: a UTF-16 code unit is at most 3 UTF-8 bytes, so a line of
  // up to a third of the limit in code units is under it uncounted. Every
  // frame in normal use is, so the decoder counts nothing on the hot paths
  // (the attach client's output, the runner's keystrokes). Counting resumes
  // where it stopped: `counted` code units of `buffered` make `countedBytes`.
  let counted = 0;
  let countedBytes = 0;
  let afterHigh = false; // the counted text ends in a high surrogate still waiting for its pair
  let heldCR = false; // a CR came last: the terminator if LF follows, else part of the line
  let discarding = false; // inside a line already refused; skip to its end

  const tooLarge = (): DecodedFrame => ({
    ok: false,
    code: 'frame_too_large',
    message: `frame over ${maxFrameBytes} bytes refused`,
  });

  /** Counts `text`, the next `text.length` code units of `buffered` after the counted ones. */
  const countPiece = (text: string) => {
    const r = countUtf8(text, afterHigh);
    countedBytes += r.bytes;
    afterHigh = r.afterHigh;
    counted += text.length;
  };

  /** UTF-8 bytes of `buffered`, exact (the same answer however it was chunked). */
  const bufferedBytes = (): number => {
    if (counted < buffered.length) countPiece(buffered.slice(counted));
    return countedBytes;
  };

  const overLimit = (): boolean => buffered.length * MAX_UTF8_PER_UNIT > maxFrameBytes && bufferedBytes() > maxFrameBytes;

  /**
   * Adds to the line. Once the line is long enough that its size matters,
   * each piece is counted as it comes (the uncounted start once, first), so a
   * long line arriving in many small chunks costs no more than it did when
   * every piece was counted.
   */
  const add = (text: string) => {
    buffered += text;
    if (buffered.length * MAX_UTF8_PER_UNIT <= maxFrameBytes) return;
    const start = buffered.length - text.length;
    if (counted < start) countPiece(buffered.slice(counted, start));
    countPiece(text);
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
    counted = 0;
    countedBytes = 0;
    afterHigh = false;
    heldCR = false;
  };

  /** The line just ended (a held CR was its terminator). */
  const finishLine = (): DecodedFrame | null => {
    const line = buffered;
    const tooBig = overLimit();
    reset();
    if (tooBig) return tooLarge();
    if (isBlank(line)) return null; // blank: JSON whitespace only
    try {
      return { ok: true, value: JSON.parse(line) };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, code: 'malformed_json', message: `malformed JSON: ${why}` };
    }
  };

  return {
    get pending() {
      return bufferedBytes();
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
            if (overLimit()) {
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

/** The most UTF-8 bytes one UTF-16 code unit can stand for (a pair's two units make 4). */
const MAX_UTF8_PER_UNIT = 3;

/** Only JSON whitespace (space, tab, CR; LF ends the line): the regex runs only for a line that starts like one. */
function isBlank(line: string): boolean {
  const c = line.charCodeAt(0); // NaN for ''
  if (c === 0x7b) return false; // '{': every frame we send
  return /^[ \t\r]*$/.test(line);
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Shorter text is counted by the loop alone: a regex call costs more than it saves there. */
const ASCII_SCAN_MIN_LENGTH = 64;

/**
 * UTF-8 length of `text` as a peer would encode it; a lone surrogate counts as
 * U+FFFD (3 bytes). `afterHigh` says the text continues one that ended in an
 * unpaired high surrogate, so a pair split across chunks counts 4, not 6.
 */
function countUtf8(text: string, afterHigh: boolean): { bytes: number; afterHigh: boolean } {
  // Output is mostly ASCII: a regex finds the first other character several
  // times faster than this loop gets there (the ring and the decoder count
  // every output byte). Everything before it is one byte per code unit.
  const first = text.length < ASCII_SCAN_MIN_LENGTH ? 0 : text.search(NON_ASCII);
  if (first === -1) return { bytes: text.length, afterHigh: text.length > 0 ? false : afterHigh };
  if (first > 0) afterHigh = false;
  let n = first;
  for (let i = first; i < text.length; i++) {
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
