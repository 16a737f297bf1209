/** What a runner connection (./connection.ts) makes of the frames it decodes: a message, or what was wrong with the frame. */
import type { BinaryDecodedFrame, Utf8Decode } from '../../core/protocol/binary-framing.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';

/** The reply decoder's UTF-8: Buffer's own (socket chunks are Buffers; anything else is viewed as one, not copied). */
export const utf8: Utf8Decode = (bytes, start, end) =>
  (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8', start, end);

/** A frame the runner sent that we could not read: what was wrong with it. */
export interface ProtocolError {
  /** bad_frame: binary1 bytes that make no frame (an unknown type byte closes the connection: see RunnerConnection). */
  code: 'frame_too_large' | 'malformed_json' | 'not_a_message' | 'bad_frame';
  message: string;
}

type Read = { ok: true; value: RunnerMessage } | { ok: false; error: ProtocolError };

/** A decoded frame as a message, or what was wrong with it. */
export function asMessage(frame: BinaryDecodedFrame): Read {
  if (!frame.ok) return { ok: false, error: { code: frame.code, message: frame.message } };
  const v = frame.value;
  if (typeof v !== 'object' || v === null || typeof (v as { type?: unknown }).type !== 'string') {
    return { ok: false, error: { code: 'not_a_message', message: `a frame with no message type: ${JSON.stringify(v).slice(0, 80)}` } };
  }
  return { ok: true, value: v as RunnerMessage };
}
