/**
 * A runner message as its client's framing writes it (docs/protocol.md, "Framings"): an NDJSON
 * line, or a binary1 frame whose output data is the chunk's raw UTF-8 (no JSON, no escaping).
 * `SharedFrame` is one message going to many clients: encoded at most once per framing, and a
 * live chunk's binary1 frame copies the PTY's bytes when they are its text's UTF-8.
 */
import { FRAME_JSON, HEADER_BYTES, OUTPUT_HEADER_BYTES, writeFrameHeader, writeOutputHeader, type Framing } from '../../core/protocol/binary-framing.js';
import { encodeFrame } from '../../core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';

/** What goes to socket.write: a line of text, or bytes. */
export type WireFrame = string | Uint8Array;

export function encodeFor(framing: Framing, message: RunnerMessage): WireFrame {
  if (framing === 'ndjson') return encodeFrame(message);
  if (message.type === 'output') return binaryOutput(message.seq, message.data);
  const json = JSON.stringify(message);
  const n = Buffer.byteLength(json, 'utf8');
  const b = Buffer.allocUnsafe(HEADER_BYTES + n);
  writeFrameHeader(b, FRAME_JSON, n);
  b.write(json, HEADER_BYTES, 'utf8');
  return b;
}

/** An output frame: 13 header bytes, then the data as UTF-8 (written straight into the frame). */
function binaryOutput(seq: number, data: string): Uint8Array {
  const n = Buffer.byteLength(data, 'utf8');
  const b = Buffer.allocUnsafe(OUTPUT_HEADER_BYTES + n);
  writeOutputHeader(b, seq, n);
  b.write(data, OUTPUT_HEADER_BYTES, 'utf8');
  return b;
}

/** The same frame from the data's UTF-8 bytes themselves (copied in, not encoded). */
function binaryOutputOf(seq: number, utf8: Uint8Array): Uint8Array {
  const b = Buffer.allocUnsafe(OUTPUT_HEADER_BYTES + utf8.length);
  writeOutputHeader(b, seq, utf8.length);
  b.set(utf8, OUTPUT_HEADER_BYTES);
  return b;
}

/** One message for many clients (a live output chunk, a status push): each framing's encoding made on first use, then shared. */
export class SharedFrame {
  private ndjson: string | null = null;
  private binary: WireFrame | null = null;

  constructor(
    readonly message: RunnerMessage,
    /** An output message's data as UTF-8, when the caller has it (exactly `data`'s encoding): binary1 copies it. */
    private readonly utf8: Uint8Array | null = null,
  ) {}

  encoded(framing: Framing): WireFrame {
    if (framing === 'ndjson') return (this.ndjson ??= encodeFrame(this.message));
    if (this.binary) return this.binary;
    const m = this.message;
    return (this.binary = m.type === 'output' && this.utf8 ? binaryOutputOf(m.seq, this.utf8) : encodeFor(framing, m));
  }
}
