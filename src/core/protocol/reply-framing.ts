/**
 * A client's decoder of everything a runner sends, in bytes: NDJSON up to and including the
 * runner's hello (so an old runner, or one that picked nothing, is read exactly as before), then
 * the framing that hello names. The switch happens inside one push, at the byte after the hello's
 * newline, so a hello and the frames after it may come in the same read. Pure and incremental.
 */
import { createBinaryDecoder, type BinaryDecodedFrame, type BinaryDecoder, type Framing, type Utf8Decode } from './binary-framing.js';
import { createFrameDecoder, type DecodedFrame } from './frame-decoder.js';
import { MAX_FRAME_BYTES } from './protocol.js';

export interface ReplyDecoder {
  /** Feed the next bytes off the socket; returns every frame they finished, in order. */
  push(bytes: Uint8Array): BinaryDecodedFrame[];
  /** The framing in force: NDJSON until the runner's hello said otherwise. */
  readonly framing: Framing;
  /** Bytes held for an unfinished frame. */
  readonly pending: number;
}

const LF = 0x0a;

export function createReplyDecoder(utf8: Utf8Decode, maxFrameBytes: number = MAX_FRAME_BYTES): ReplyDecoder {
  const lines = createFrameDecoder(maxFrameBytes);
  let binary: BinaryDecoder | null = null;
  let helloSeen = false;
  /** The start of a UTF-8 character the last push ended inside (at most 3 bytes). */
  let partial: Uint8Array = new Uint8Array(0);

  /** NDJSON from bytes[start, end): decoded to text up to the last whole character, the rest held. */
  const text = (b: Uint8Array, start: number, end: number): DecodedFrame[] => {
    let s = '';
    if (partial.length > 0) {
      // Finish the held character with the bytes that continue it (or give it up as invalid).
      const want = utf8Length(partial[0]!) - partial.length;
      let k = 0;
      while (k < want && start + k < end && isContinuation(b[start + k]!)) k++;
      if (k < want && start + k === end) {
        partial = concat(partial, b.subarray(start, end)); // still unfinished
        return [];
      }
      s = utf8(concat(partial, b.subarray(start, start + k)), 0, partial.length + k);
      partial = new Uint8Array(0);
      start += k;
    }
    const cut = wholeEnd(b, start, end);
    if (cut < end) partial = b.slice(cut, end);
    s += utf8(b, start, cut);
    return s === '' ? [] : lines.push(s);
  };

  return {
    get framing(): Framing {
      return binary ? 'binary1' : 'ndjson';
    },
    get pending() {
      return binary ? binary.pending + lines.pending : lines.pending + partial.length;
    },
    push(bytes: Uint8Array): BinaryDecodedFrame[] {
      const out: BinaryDecodedFrame[] = [];
      let i = 0;
      // Line by line until the hello: it decides how the bytes after its newline are read.
      while (!helloSeen && i < bytes.length) {
        const lf = bytes.indexOf(LF, i);
        const end = lf === -1 ? bytes.length : lf + 1;
        for (const f of text(bytes, i, end)) {
          out.push(f);
          const framing = helloFraming(f);
          if (framing === null) continue;
          helloSeen = true;
          if (framing === 'binary1') binary = createBinaryDecoder(utf8, maxFrameBytes);
        }
        i = end;
      }
      if (i >= bytes.length) return out;
      const rest = i === 0 ? bytes : bytes.subarray(i);
      if (binary) out.push(...binary.push(rest));
      else out.push(...text(rest, 0, rest.length));
      return out;
    },
  };
}

/** The framing a decoded frame switches to when it is the runner's hello; null when it is not one. */
function helloFraming(f: DecodedFrame): Framing | null {
  if (!f.ok || typeof f.value !== 'object' || f.value === null) return null;
  const v = f.value as { type?: unknown; framing?: unknown };
  if (v.type !== 'hello') return null;
  return v.framing === 'binary1' ? 'binary1' : 'ndjson';
}

const isContinuation = (c: number) => (c & 0xc0) === 0x80;

/** How many bytes the UTF-8 character that starts with `lead` has (1 for a byte that starts none). */
function utf8Length(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** The end of the last whole character in b[start, end): `end` unless the bytes stop inside one. */
function wholeEnd(b: Uint8Array, start: number, end: number): number {
  for (let k = end - 1; k >= start && k >= end - 3; k--) {
    const c = b[k]!;
    if (isContinuation(c)) continue;
    return k + utf8Length(c) > end ? k : end;
  }
  return end;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const r = new Uint8Array(a.length + b.length);
  r.set(a, 0);
  r.set(b, a.length);
  return r;
}
