/**
 * The `binary1` framing of runner -> client frames (docs/protocol.md, "Framings"): its layout, the
 * negotiation's one decision, the pure header writers and the incremental decoder. Pure: UTF-8
 * decoding comes in as a function (the core has no TextDecoder), so the Node edge decodes with
 * Buffer and the framing logic stays here.
 *
 *   frame  = type (1 byte) + payload length (uint32, big-endian) + payload
 *   0x01 J = a message as UTF-8 JSON (every message but output)
 *   0x02 O = an output chunk: seq (uint64, big-endian, below 2^53) + the data's raw UTF-8 bytes
 */
import type { DecodedFrame } from './frame-decoder.js';
import { MAX_FRAME_BYTES } from './protocol.js';

/** How a connection's runner -> client frames are written: NDJSON (the default, every client reads it) or binary1. */
export type Framing = 'ndjson' | 'binary1';

/** What a client offers in its hello, best first. */
export const OFFERED_FRAMINGS: readonly Framing[] = ['binary1'];

/** The runner's pick from a client's offer: binary1 when offered, else NDJSON (names it does not know are ignored). */
export function pickFraming(offered: readonly string[] | undefined): Framing {
  return offered?.includes('binary1') ? 'binary1' : 'ndjson';
}

export const FRAME_JSON = 0x01;
export const FRAME_OUTPUT = 0x02;
/** Type byte and payload length. */
export const HEADER_BYTES = 5;
/** An output frame's payload starts with its seq. */
const SEQ_BYTES = 8;
/** Header and seq: where an output frame's data starts. */
export const OUTPUT_HEADER_BYTES = HEADER_BYTES + SEQ_BYTES;
const TWO_32 = 2 ** 32;

/** UTF-8 text of bytes[start, end) (the Node edge passes Buffer's decoder; invalid bytes become U+FFFD). */
export type Utf8Decode = (bytes: Uint8Array, start: number, end: number) => string;

/** What the binary decoder gives: NDJSON's frames, plus a frame whose bytes make no sense. */
export type BinaryDecodedFrame =
  | DecodedFrame
  /** `fatal`: the stream cannot be followed past it (an unknown type byte); else that one frame is skipped. */
  | { ok: false; code: 'bad_frame'; message: string; fatal: boolean };

/** Writes a frame's type and payload length at the start of `into`. */
export function writeFrameHeader(into: Uint8Array, type: number, payloadBytes: number): void {
  into[0] = type;
  writeU32(into, 1, payloadBytes);
}

/** Writes an output frame's header (type, length, seq) for `dataBytes` bytes of data. */
export function writeOutputHeader(into: Uint8Array, seq: number, dataBytes: number): void {
  writeFrameHeader(into, FRAME_OUTPUT, SEQ_BYTES + dataBytes);
  writeU32(into, HEADER_BYTES, Math.floor(seq / TWO_32));
  writeU32(into, HEADER_BYTES + 4, seq % TWO_32);
}

export interface BinaryDecoder {
  /** Feed the next bytes; returns every frame they finished, in order. After a fatal frame, nothing more. */
  push(bytes: Uint8Array): BinaryDecodedFrame[];
  /** Bytes held for an unfinished frame: never more than the limit plus a header. */
  readonly pending: number;
}

/**
 * Incremental binary1 decoder. Never throws. A frame over `maxFrameBytes` is refused from its
 * header and its payload skipped as it streams (none of it kept); a J frame that is not JSON is an
 * error and decoding carries on, since the length still says where the next frame starts; an
 * unknown type byte means the stream is not binary1 (or lost its place), and a length-prefixed
 * stream cannot find its place again: one fatal error, then the decoder stays stopped.
 */
export function createBinaryDecoder(utf8: Utf8Decode, maxFrameBytes: number = MAX_FRAME_BYTES): BinaryDecoder {
  const header = new Uint8Array(HEADER_BYTES);
  let headerFill = 0;
  let type = 0;
  let payload: Uint8Array | null = null; // a payload arriving over several pushes
  let payloadFill = 0;
  let skipping = 0; // bytes still to drop of a refused frame
  let stopped = false;

  const decode = (t: number, b: Uint8Array, start: number, end: number): BinaryDecodedFrame => {
    if (t === FRAME_OUTPUT) {
      if (end - start < SEQ_BYTES) return { ok: false, code: 'bad_frame', message: `output frame of ${end - start} bytes has no seq`, fatal: false };
      const high = readU32(b, start);
      if (high >= 2 ** 21) return { ok: false, code: 'bad_frame', message: 'output frame seq over 2^53', fatal: false };
      const seq = high * TWO_32 + readU32(b, start + 4);
      return { ok: true, value: { type: 'output', seq, data: utf8(b, start + SEQ_BYTES, end) } };
    }
    try {
      return { ok: true, value: JSON.parse(utf8(b, start, end)) };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, code: 'malformed_json', message: `malformed JSON: ${why}` };
    }
  };

  /** A header is complete: the frame's checks, and whether its payload follows. */
  const begin = (t: number, length: number, out: BinaryDecodedFrame[]): boolean => {
    if (t !== FRAME_JSON && t !== FRAME_OUTPUT) {
      stopped = true;
      out.push({ ok: false, code: 'bad_frame', message: `unknown frame type 0x${t.toString(16).padStart(2, '0')}: the stream is not binary1`, fatal: true });
      return false;
    }
    if (length > maxFrameBytes) {
      skipping = length;
      out.push({ ok: false, code: 'frame_too_large', message: `frame over ${maxFrameBytes} bytes refused` });
      return false;
    }
    type = t;
    return true;
  };

  return {
    get pending() {
      return headerFill + payloadFill;
    },
    push(bytes: Uint8Array): BinaryDecodedFrame[] {
      const out: BinaryDecodedFrame[] = [];
      const n = bytes.length;
      let i = 0;
      while (i < n && !stopped) {
        if (skipping > 0) {
          const k = Math.min(skipping, n - i);
          skipping -= k;
          i += k;
          continue;
        }
        if (payload) {
          const k = Math.min(payload.length - payloadFill, n - i);
          payload.set(bytes.subarray(i, i + k), payloadFill);
          payloadFill += k;
          i += k;
          if (payloadFill < payload.length) break;
          out.push(decode(type, payload, 0, payload.length));
          payload = null;
          payloadFill = 0;
          continue;
        }
        let length: number;
        let t: number;
        if (headerFill === 0 && n - i >= HEADER_BYTES) {
          // The usual case: the whole header is in this chunk.
          t = bytes[i]!;
          length = readU32(bytes, i + 1);
          i += HEADER_BYTES;
        } else {
          const k = Math.min(HEADER_BYTES - headerFill, n - i);
          header.set(bytes.subarray(i, i + k), headerFill);
          headerFill += k;
          i += k;
          if (headerFill < HEADER_BYTES) break;
          headerFill = 0;
          t = header[0]!;
          length = readU32(header, 1);
        }
        if (!begin(t, length, out)) continue;
        if (n - i >= length) {
          // The whole payload is here too: decoded in place, nothing copied.
          out.push(decode(t, bytes, i, i + length));
          i += length;
        } else {
          payload = new Uint8Array(length);
        }
      }
      return out;
    },
  };
}

function readU32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

function writeU32(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 24) & 0xff;
  b[at + 1] = (v >>> 16) & 0xff;
  b[at + 2] = (v >>> 8) & 0xff;
  b[at + 3] = v & 0xff;
}
