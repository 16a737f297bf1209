/**
 * The binary1 framing (docs/protocol.md, "Framings"): the pure decoders against the runner's real
 * encoder, a stream cut at random points (inside headers, inside multi-byte characters), oversize
 * frames, garbage, empty output, and the switch from NDJSON at the runner's hello.
 */
import { describe, expect, it } from 'vitest';
import {
  FRAME_JSON,
  FRAME_OUTPUT,
  HEADER_BYTES,
  OUTPUT_HEADER_BYTES,
  createBinaryDecoder,
  pickFraming,
  writeFrameHeader,
  type BinaryDecodedFrame,
  type Framing,
} from '../../src/core/protocol/binary-framing.js';
import { encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { createReplyDecoder } from '../../src/core/protocol/reply-framing.js';
import { validateClientMessage } from '../../src/core/protocol/validate.js';
import { encodeFor } from '../../src/runner/clients/wire-framing.js';
import { mulberry32 } from '../helpers/rng.js';

/** A decoder independent of the one the client uses (Buffer's): the web TextDecoder. */
const utf8 = (b: Uint8Array, s: number, e: number) => new TextDecoder().decode(b.subarray(s, e));
const bytes = (f: string | Uint8Array) => (typeof f === 'string' ? new TextEncoder().encode(f) : f);
const join = (parts: Uint8Array[]) => {
  const r = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    r.set(p, at);
    at += p.length;
  }
  return r;
};
const values = (frames: BinaryDecodedFrame[]) => frames.map((f) => (f.ok ? f.value : { error: f.code }));

const HELLO: RunnerMessage = { type: 'hello', protocol: 1, generation: 'g', host: { id: 'x' } as never, framing: 'binary1' };

/** Output that is hard on a decoder: every UTF-8 length, escapes, quotes, NUL, empty chunks, a long one. */
function mixedMessages(rand: () => number, count: number): RunnerMessage[] {
  const pieces = ['a', 'é', '€', '😀', '\x1b[38;5;208m', '"', '\\', '\r\n', '\0', '한국어', 'ｗｉｄｅ', '\u{10ffff}'];
  const out: RunnerMessage[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.1) out.push({ type: 'status', host: { id: `ü${i}` } as never, generation: 'g€' });
    else if (r < 0.15) out.push({ type: 'output', seq: i, data: '' });
    else {
      let data = '';
      const n = r > 0.99 ? 5000 : Math.floor(rand() * 40);
      for (let k = 0; k < n; k++) data += pieces[Math.floor(rand() * pieces.length)];
      out.push({ type: 'output', seq: i, data });
    }
  }
  return out;
}

/** Cuts `wire` at random points: many one- and two-byte chunks, some long ones. */
function cut(wire: Uint8Array, rand: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < wire.length; ) {
    const r = rand();
    const len = r < 0.4 ? 1 : r < 0.6 ? 2 : r < 0.95 ? 1 + Math.floor(rand() * 20) : 1 + Math.floor(rand() * 3000);
    chunks.push(wire.subarray(at, at + len));
    at += len;
  }
  return chunks;
}

describe('binary1 through the reply decoder, cut at random points', () => {
  for (const seed of [1, 2, 3, 42, 1337]) {
    it(`seed ${seed}: the NDJSON hello, then binary frames: the same messages however the bytes are cut`, () => {
      const rand = mulberry32(seed);
      const messages = mixedMessages(rand, 300);
      const frames = [bytes(encodeFrame(HELLO)), ...messages.map((m) => bytes(encodeFor('binary1', m)))];
      const wire = join(frames);
      const chunks = cut(wire, rand);

      // The cuts must land where it is hard, or the test proves nothing.
      const starts = new Set<number>();
      let at = 0;
      for (const f of frames) {
        starts.add(at);
        at += f.length;
      }
      let insideHeader = 0;
      let insideChar = 0;
      at = 0;
      for (const c of chunks.slice(0, -1)) {
        at += c.length;
        for (let k = 1; k < OUTPUT_HEADER_BYTES; k++) if (starts.has(at - k)) insideHeader++;
        if ((wire[at]! & 0xc0) === 0x80) insideChar++;
      }
      expect({ insideHeader: insideHeader > 20, insideChar: insideChar > 20 }).toEqual({ insideHeader: true, insideChar: true });

      const d = createReplyDecoder(utf8);
      const got: BinaryDecodedFrame[] = [];
      for (const c of chunks) {
        got.push(...d.push(c));
        expect(d.pending).toBeLessThan(64 * 1024);
      }
      expect(d.framing).toBe('binary1');
      expect(values(got)).toEqual([HELLO, ...messages]);
      expect(d.pending).toBe(0);
    });
  }

  it('an older runner (a hello without framing): NDJSON to the end, multi-byte characters split anywhere', () => {
    const rand = mulberry32(7);
    const hello = { ...HELLO, framing: undefined };
    const messages = mixedMessages(rand, 200);
    const wire = bytes([hello, ...messages].map(encodeFrame).join(''));
    const d = createReplyDecoder(utf8);
    const got = cut(wire, rand).flatMap((c) => d.push(c));
    expect(d.framing).toBe('ndjson');
    expect(values(got)).toEqual([{ type: 'hello', protocol: 1, generation: 'g', host: { id: 'x' } }, ...messages]);
  });

  it('NDJSON before the hello (an error line) stays NDJSON; the hello and its first frames may share one read', () => {
    const d = createReplyDecoder(utf8);
    const early = encodeFrame({ type: 'error', code: 'not_hello', message: 'é' });
    const out: RunnerMessage = { type: 'output', seq: 0, data: '€' };
    const wire = join([bytes(early + encodeFrame(HELLO)), bytes(encodeFor('binary1', out))]);
    expect(values(d.push(wire))).toEqual([{ type: 'error', code: 'not_hello', message: 'é' }, HELLO, out]);
  });
});

describe('the binary decoder', () => {
  const frame = (type: number, payload: Uint8Array) => {
    const b = new Uint8Array(HEADER_BYTES + payload.length);
    writeFrameHeader(b, type, payload.length);
    b.set(payload, HEADER_BYTES);
    return b;
  };
  const ok: RunnerMessage = { type: 'output', seq: 9, data: 'after' };

  it('empty output is a frame of its own, with empty data', () => {
    const d = createBinaryDecoder(utf8);
    const wire = bytes(encodeFor('binary1', { type: 'output', seq: 5, data: '' }));
    expect(wire.length).toBe(OUTPUT_HEADER_BYTES);
    expect(values(d.push(wire))).toEqual([{ type: 'output', seq: 5, data: '' }]);
  });

  it('seqs past 2^32 survive; one past 2^53 is refused and the stream goes on', () => {
    const d = createBinaryDecoder(utf8);
    const big: RunnerMessage = { type: 'output', seq: 2 ** 40 + 3, data: 'x' };
    const tooBig = frame(FRAME_OUTPUT, new Uint8Array([0x00, 0x20, 0, 0, 0, 0, 0, 0]));
    const got = d.push(join([bytes(encodeFor('binary1', big)), tooBig, bytes(encodeFor('binary1', ok))]));
    expect(values(got)).toEqual([big, { error: 'bad_frame' }, ok]);
  });

  it('a frame over the limit: one frame_too_large from its header, its payload skipped unbuffered, then the next frame', () => {
    const max = 1000;
    const d = createBinaryDecoder(utf8, max);
    const huge = bytes(encodeFor('binary1', { type: 'output', seq: 1, data: 'y'.repeat(50_000) }));
    const wire = join([huge, bytes(encodeFor('binary1', ok))]);
    const got: BinaryDecodedFrame[] = [];
    for (let at = 0; at < wire.length; at += 333) {
      got.push(...d.push(wire.subarray(at, at + 333)));
      expect(d.pending).toBeLessThanOrEqual(HEADER_BYTES);
    }
    expect(values(got)).toEqual([{ error: 'frame_too_large' }, ok]);
    expect(got[0]).toMatchObject({ message: 'frame over 1000 bytes refused' });
  });

  it('a frame at the limit is taken; the bytes held never pass the limit and a header', () => {
    const max = 1000;
    const d = createBinaryDecoder(utf8, max);
    const exact = bytes(encodeFor('binary1', { type: 'output', seq: 1, data: 'z'.repeat(max - 8) }));
    const got: BinaryDecodedFrame[] = [];
    for (let at = 0; at < exact.length; at += 7) {
      got.push(...d.push(exact.subarray(at, at + 7)));
      expect(d.pending).toBeLessThanOrEqual(max + HEADER_BYTES);
    }
    expect(values(got)).toEqual([{ type: 'output', seq: 1, data: 'z'.repeat(max - 8) }]);
  });

  it('a JSON frame that is not JSON is malformed_json, and the frame after it still decodes', () => {
    const d = createBinaryDecoder(utf8);
    const got = d.push(join([frame(FRAME_JSON, bytes('{"type": oops')), frame(FRAME_JSON, new Uint8Array(0)), bytes(encodeFor('binary1', ok))]));
    expect(values(got)).toEqual([{ error: 'malformed_json' }, { error: 'malformed_json' }, ok]);
  });

  it('an output frame too short for its seq is a bad frame, skipped', () => {
    const d = createBinaryDecoder(utf8);
    expect(values(d.push(join([frame(FRAME_OUTPUT, new Uint8Array(3)), bytes(encodeFor('binary1', ok))])))).toEqual([{ error: 'bad_frame' }, ok]);
  });

  it('garbage (an unknown type byte): one fatal bad_frame, then nothing, even well-formed frames', () => {
    const d = createBinaryDecoder(utf8);
    const good = bytes(encodeFor('binary1', ok));
    const got = d.push(join([good, bytes('{"type":"output"}\n'), good]));
    expect(got.map((f) => (f.ok ? 'ok' : f.code))).toEqual(['ok', 'bad_frame']);
    expect(got[1]).toMatchObject({ fatal: true, message: 'unknown frame type 0x7b: the stream is not binary1' });
    expect(d.push(good)).toEqual([]);
  });

  it('garbage after a binary hello reaches the reply decoder as one fatal error', () => {
    const d = createReplyDecoder(utf8);
    const got = d.push(join([bytes(encodeFrame(HELLO)), new Uint8Array([0xff, 1, 2, 3, 4, 5, 6])]));
    expect(got.map((f) => (f.ok ? 'ok' : f.code))).toEqual(['ok', 'bad_frame']);
  });
});

describe('negotiation', () => {
  it('the runner picks binary1 only when offered; names it does not know are ignored', () => {
    const cases: Array<[string[] | undefined, Framing]> = [
      [undefined, 'ndjson'],
      [[], 'ndjson'],
      [['binary2'], 'ndjson'],
      [['binary2', 'binary1'], 'binary1'],
      [['binary1'], 'binary1'],
    ];
    for (const [offer, want] of cases) expect(pickFraming(offer)).toBe(want);
  });

  it('a hello may offer framings: a list of names; anything else is refused', () => {
    expect(validateClientMessage({ type: 'hello', protocol: 1, framing: ['binary1', 'future'] })).toMatchObject({ ok: true, message: { framing: ['binary1', 'future'] } });
    expect(validateClientMessage({ type: 'hello', protocol: 1 })).toMatchObject({ ok: true, message: { framing: undefined } });
    for (const framing of ['binary1', [1], Array(17).fill('x'), {}]) {
      expect(validateClientMessage({ type: 'hello', protocol: 1, framing })).toMatchObject({ ok: false, code: 'invalid_message' });
    }
  });

  it('NDJSON encoding is unchanged: the same line as ever', () => {
    const m: RunnerMessage = { type: 'output', seq: 3, data: 'é\x1b' };
    expect(encodeFor('ndjson', m)).toBe('{"type":"output","seq":3,"data":"é\\u001b"}\n');
    expect(new Uint8Array(bytes(encodeFor('binary1', m)))).toEqual(new Uint8Array([FRAME_OUTPUT, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 3, 0xc3, 0xa9, 0x1b]));
  });
});
