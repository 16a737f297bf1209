/**
 * The PTY's reads cut at character boundaries (src/runner/pty/utf8-chunker.ts): whatever the cuts,
 * every chunk's bytes decode to exactly its text, the texts join to the output, an unfinished
 * character is held into the next read and given out at the exit, and bytes that are not UTF-8
 * leave the chunk as text alone.
 */
import { describe, expect, it } from 'vitest';
import { Utf8Chunker, wholeCharsEnd, type PtyOutput } from '../../src/runner/pty/utf8-chunker.js';
import { mulberry32 } from '../helpers/rng.js';

/** Output with every width of character: ASCII, escapes, é (2 bytes), € and 中 (3), 😀 and 𝄞 (4), a combining accent, C1 controls, a BOM. */
const PIECES = ['a', 'line ', '\r\n', '\x1b[1;31m', '\x1b[0m', 'é', 'ü', '€', '中文', '😀', '𝄞', 'e\u0301', '\u0085', '\ufeff', '\u00a0', 'ßΩж'];

function text(rand: () => number, pieces: number): string {
  let s = '';
  for (let i = 0; i < pieces; i++) s += PIECES[Math.floor(rand() * PIECES.length)];
  return s;
}

/** `bytes` cut at random points (some cuts fall inside characters), as PTY reads. */
function reads(bytes: Buffer, rand: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = 1 + Math.floor(rand() * 12);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

const isLead = (c: number) => (c & 0xc0) !== 0x80;

function expectExact(c: PtyOutput): void {
  expect(c.raw).not.toBeNull();
  expect(Buffer.from(c.raw!).toString('utf8')).toBe(c.text);
  expect(Buffer.from(c.text, 'utf8').equals(Buffer.from(c.raw!))).toBe(true);
}

describe('Utf8Chunker', () => {
  it.each([1, 2, 3, 4, 5])('cuts random reads of multi-byte text so each chunk is whole characters, its bytes its text (seed %i)', (seed) => {
    const rand = mulberry32(seed);
    const original = text(rand, 3000);
    const bytes = Buffer.from(original, 'utf8');
    const chunker = new Utf8Chunker();
    const chunks: PtyOutput[] = [];
    let insideCuts = 0;
    let at = 0;
    for (const r of reads(bytes, rand)) {
      at += r.length;
      if (at < bytes.length && !isLead(bytes[at]!)) insideCuts++;
      const c = chunker.push(r);
      if (c) chunks.push(c);
    }
    expect(insideCuts).toBeGreaterThan(100); // the test cuts characters, not only between them
    for (const c of chunks) expectExact(c);
    expect(chunks.map((c) => c.text).join('')).toBe(original);
    expect(Buffer.concat(chunks.map((c) => c.raw!)).equals(bytes)).toBe(true);
    expect(chunker.held).toBe(0);
    expect(chunker.flush()).toBeNull();
  });

  it('holds a 4-byte emoji split any way until it is whole', () => {
    const emoji = Buffer.from('😀', 'utf8');
    for (const cuts of [[1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]]) {
      const chunker = new Utf8Chunker();
      const parts: Buffer[] = [];
      let from = 0;
      for (const c of [...cuts, 4]) {
        parts.push(Buffer.concat([from === 0 ? Buffer.from('x') : Buffer.alloc(0), emoji.subarray(from, c), c === 4 ? Buffer.from('y') : Buffer.alloc(0)]));
        from = c;
      }
      const out = parts.map((p) => chunker.push(p));
      // 'x' alone first, nothing while the emoji is unfinished, then the emoji whole with 'y'.
      expect(out[0]).toEqual({ text: 'x', raw: Buffer.from('x') });
      expect(out.slice(1, -1)).toEqual(out.slice(1, -1).map(() => null));
      expectExact(out.at(-1)!);
      expect(out.at(-1)!.text).toBe('😀y');
      expect(chunker.flush()).toBeNull();
    }
  });

  it('gives a character the PTY closed inside of as a last chunk at the exit (as text: it is not UTF-8)', () => {
    const chunker = new Utf8Chunker();
    expect(chunker.push(Buffer.from([0x61, 0xe2, 0x82]))).toEqual({ text: 'a', raw: Buffer.from('a') });
    expect(chunker.held).toBe(2);
    expect(chunker.flush()).toEqual({ text: '\ufffd', raw: null });
    expect(chunker.held).toBe(0);
    expect(chunker.flush()).toBeNull();
  });

  it('leaves bytes that are not UTF-8 in their chunk and gives it as text only', () => {
    const cases: Array<[number[], string]> = [
      [[0x61, 0xff, 0x62], 'a\ufffdb'], // a byte that is never UTF-8
      [[0x80, 0x61], '\ufffda'], // a continuation byte alone
      [[0xc0, 0xaf], '\ufffd\ufffd'], // an overlong slash
      [[0xed, 0xa0, 0x80], '\ufffd\ufffd\ufffd'], // a UTF-16 surrogate
      [[0x61, 0xf5], 'a\ufffd'], // a lead byte past U+10FFFF ends the read: not held, it starts nothing
    ];
    for (const [bytes, expected] of cases) {
      const chunker = new Utf8Chunker();
      const c = chunker.push(Buffer.from(bytes));
      expect(c).toEqual({ text: expected, raw: null });
      expect(chunker.held).toBe(0);
    }
    // A bad chunk between good ones: only it is text alone.
    const chunker = new Utf8Chunker();
    const out = [[0x41, 0xc3], [0xa9, 0xfe], [0x42]].map((b) => chunker.push(Buffer.from(b)));
    expect(out).toEqual([{ text: 'A', raw: Buffer.from('A') }, { text: 'é\ufffd', raw: null }, { text: 'B', raw: Buffer.from('B') }]);
  });

  it('finds the last whole character: ends inside one, at one, or after bytes no character starts with', () => {
    const b = (...x: number[]) => Uint8Array.from(x);
    expect(wholeCharsEnd(b())).toBe(0);
    expect(wholeCharsEnd(b(0x61))).toBe(1);
    expect(wholeCharsEnd(b(0x61, 0xc3))).toBe(1);
    expect(wholeCharsEnd(b(0x61, 0xc3, 0xa9))).toBe(3);
    expect(wholeCharsEnd(b(0xe2, 0x82))).toBe(0);
    expect(wholeCharsEnd(b(0xf0, 0x9f, 0x98))).toBe(0);
    expect(wholeCharsEnd(b(0xf0, 0x9f, 0x98, 0x80))).toBe(4);
    expect(wholeCharsEnd(b(0x80, 0x80, 0x80))).toBe(3); // no lead within 3 bytes: nothing to wait for
    expect(wholeCharsEnd(b(0xc1))).toBe(1); // C0/C1 start only overlongs
  });
});
