import { describe, expect, it } from 'vitest';
import { createFrameDecoder, encodeFrame, utf8Length, type DecodedFrame } from '../../src/core/protocol/frame-decoder.js';
import { MAX_FRAME_BYTES } from '../../src/core/protocol/protocol.js';
import { mulberry32 } from '../helpers/rng.js';


/** Feeds the chunks in order, checking the memory bound after every push. */
function feed(chunks: string[], max = MAX_FRAME_BYTES): DecodedFrame[] {
  const d = createFrameDecoder(max);
  const out: DecodedFrame[] = [];
  for (const c of chunks) {
    out.push(...d.push(c));
    expect(d.pending).toBeLessThanOrEqual(max);
  }
  return out;
}

const values = (frames: DecodedFrame[]) => frames.map((f) => (f.ok ? f.value : { error: f.code }));
const bytes = (s: string) => new TextEncoder().encode(s).length;

// Multi-byte text in every UTF-8 length: é (2), 中 (3), 😀 (4, a surrogate pair in JS).
const FRAMES: unknown[] = [
  { type: 'hello', protocol: 1 },
  { type: 'input', data: 'é中😀 a\nb\r\n' },
  [1, 2.5, null, true, '🧪'],
  { nested: { deep: ['x', { y: '\u2028' }] } },
];
const MULTI = FRAMES.map(encodeFrame).join('');

describe('createFrameDecoder', () => {
  it('decodes several frames from one chunk, in order', () => {
    expect(values(feed([MULTI]))).toEqual(FRAMES);
  });

  it('keeps a frame split across chunks until its newline arrives', () => {
    const d = createFrameDecoder();
    expect(d.push('{"type":"inp')).toEqual([]);
    expect(d.push('ut","data":"x"}')).toEqual([]);
    expect(d.push('\n')).toEqual([{ ok: true, value: { type: 'input', data: 'x' } }]);
    expect(d.pending).toBe(0);
  });

  it('gives the same frames however the input is cut in two (every code unit position)', () => {
    for (let i = 0; i <= MULTI.length; i++) {
      expect(values(feed([MULTI.slice(0, i), MULTI.slice(i)])), `cut at ${i}`).toEqual(FRAMES);
    }
  });

  it('gives the same frames however the input is cut in three (every pair of positions)', () => {
    const input = encodeFrame(FRAMES[1]) + encodeFrame(FRAMES[2]);
    const want = [FRAMES[1], FRAMES[2]];
    for (let i = 0; i <= input.length; i++) {
      for (let j = i; j <= input.length; j++) {
        expect(values(feed([input.slice(0, i), input.slice(i, j), input.slice(j)])), `cuts at ${i},${j}`).toEqual(want);
      }
    }
  });

  it('gives the same frames fed one code unit at a time (surrogate pairs split)', () => {
    expect(MULTI).toContain('\uD83D\uDE00'); // the input really holds a pair to split
    expect(values(feed([...MULTI.split('')]))).toEqual(FRAMES);
  });

  it('counts pending in UTF-8 bytes, a pair split across chunks as 4 not 6', () => {
    const d = createFrameDecoder();
    d.push('"é');
    expect(d.pending).toBe(3);
    d.push('\uD83D');
    d.push('\uDE00');
    expect(d.pending).toBe(3 + 4);
    expect(d.push('"\n')).toEqual([{ ok: true, value: 'é😀' }]);
    expect(d.pending).toBe(0);
  });

  describe('line endings and blank lines', () => {
    it('accepts CRLF, including a CR and LF in different chunks', () => {
      expect(values(feed(['{"a":1}\r\n{"b":2}\r\n']))).toEqual([{ a: 1 }, { b: 2 }]);
      expect(values(feed(['{"a":1}\r', '\n{"b":2}\r', '\n']))).toEqual([{ a: 1 }, { b: 2 }]);
    });

    it('treats a CR not followed by LF as part of the line', () => {
      // CR is JSON whitespace, so this line is still valid...
      expect(values(feed(['{"a":\r', '1}\n']))).toEqual([{ a: 1 }]);
      // ...while here it is not, and must not be dropped silently.
      expect(values(feed(['"x"\r', 'y\n']))).toEqual([{ error: 'malformed_json' }]);
      // A raw CR inside a string is invalid JSON: the CR must not vanish at a chunk edge.
      expect(values(feed(['"a\r', 'b"\n']))).toEqual([{ error: 'malformed_json' }]);
      expect(values(feed(['"a\r', '', 'b"\n']))).toEqual([{ error: 'malformed_json' }]);
      // And it counts towards the limit: 1 + 1 + 1 + 1 + 1 = 5 bytes.
      expect(values(feed(['"a\r', 'b"\n'], 4))).toEqual([{ error: 'frame_too_large' }]);
    });

    it('skips empty and whitespace-only lines without an error', () => {
      expect(values(feed(['\n\n   \n\t\r\n\r\n{"a":1}\n\n']))).toEqual([{ a: 1 }]);
      expect(values(feed(['\r', '\n', ' ', '\r', '\n']))).toEqual([]);
    });

    it('reports a line of non-JSON whitespace (NBSP) as malformed, not blank', () => {
      expect(values(feed(['\u00a0\n']))).toEqual([{ error: 'malformed_json' }]);
    });
  });

  describe('bad lines', () => {
    it('reports each malformed line once and decodes the good frames after it', () => {
      const input = ['{"a":', 'nope', '{"a":1}x', 'undefined', "{'a':1}", '{"ok":true}'].join('\n') + '\n';
      const out = feed([input]);
      expect(values(out)).toEqual([
        { error: 'malformed_json' },
        { error: 'malformed_json' },
        { error: 'malformed_json' },
        { error: 'malformed_json' },
        { error: 'malformed_json' },
        { ok: true },
      ]);
      const first = out[0]!;
      expect(first.ok === false && first.message).toMatch(/^malformed JSON: /);
    });

    it('does not let an unterminated string swallow the next line', () => {
      expect(values(feed(['{"a":"unterminated\n{"b":2}\n']))).toEqual([{ error: 'malformed_json' }, { b: 2 }]);
    });

    it('never throws, even on pathological nesting', () => {
      const n = 400_000;
      const d = createFrameDecoder();
      let out: DecodedFrame[] = [];
      expect(() => {
        out = d.push('['.repeat(n) + ']'.repeat(n) + '\n' + '['.repeat(n) + '\n' + '{"after":1}\n');
      }).not.toThrow();
      expect(out).toHaveLength(3);
      expect(out[1]).toMatchObject({ ok: false, code: 'malformed_json' });
      expect(out[2]).toEqual({ ok: true, value: { after: 1 } });
    });
  });

  describe('size limit', () => {
    it('refuses an oversized frame arriving in many small chunks exactly once, bounded, then decodes the next', () => {
      const d = createFrameDecoder();
      const out: DecodedFrame[] = [];
      const piece = '{"junk":"' + 'x'.repeat(4087); // 4 KiB
      let errorAfterBytes = -1;
      let fed = 0;
      for (let i = 0; i < 768; i++) { // 3 MiB
        out.push(...d.push(piece));
        fed += piece.length;
        if (errorAfterBytes === -1 && out.length) errorAfterBytes = fed;
        expect(d.pending).toBeLessThanOrEqual(MAX_FRAME_BYTES);
      }
      out.push(...d.push('"}\n{"type":"status"}\n'));
      expect(out).toEqual([
        { ok: false, code: 'frame_too_large', message: expect.stringContaining(String(MAX_FRAME_BYTES)) },
        { ok: true, value: { type: 'status' } },
      ]);
      // Refused as it streamed, once past the limit: not held until its end.
      expect(errorAfterBytes).toBeGreaterThan(MAX_FRAME_BYTES);
      expect(errorAfterBytes).toBeLessThanOrEqual(MAX_FRAME_BYTES + piece.length);
      expect(d.pending).toBe(0);
    });

    it('refuses a frame of multi-byte text as soon as its UTF-8 bytes pass the limit', () => {
      // 700k "é" = 700k code units but 1.4 MB: over the limit in bytes, not in code units.
      const d = createFrameDecoder();
      const chunk = 'é'.repeat(10_000);
      const out: DecodedFrame[] = [...d.push('"')];
      for (let i = 0; i < 70; i++) {
        out.push(...d.push(chunk));
        expect(d.pending).toBeLessThanOrEqual(MAX_FRAME_BYTES);
      }
      expect(values(out)).toEqual([{ error: 'frame_too_large' }]); // before the newline
      expect(values([...out, ...d.push('"\n1\n')])).toEqual([{ error: 'frame_too_large' }, 1]);
    });

    it('accepts a frame of exactly the limit in UTF-8 bytes and refuses one byte more', () => {
      const k = (MAX_FRAME_BYTES - 2) / 2; // "é...é" = 2 + 2k bytes
      const atLimit = JSON.stringify('é'.repeat(k));
      expect(bytes(atLimit)).toBe(MAX_FRAME_BYTES);
      const over = JSON.stringify('é'.repeat(k) + 'a');
      expect(bytes(over)).toBe(MAX_FRAME_BYTES + 1);

      for (const ending of ['\n', '\r\n']) {
        expect(values(feed([atLimit + ending]))).toEqual([JSON.parse(atLimit)]);
        expect(values(feed([over + ending + '2\n']))).toEqual([{ error: 'frame_too_large' }, 2]);
        // Same in small chunks.
        const chunked = (s: string) => s.match(/[^]{1,4096}/g)!;
        expect(values(feed(chunked(atLimit + ending)))).toEqual([JSON.parse(atLimit)]);
        expect(values(feed([...chunked(over + ending), '2\n']))).toEqual([{ error: 'frame_too_large' }, 2]);
      }
    });

    it('counts a 4-byte character as 4 at the limit (surrogate pairs)', () => {
      const k = (MAX_FRAME_BYTES - 4) / 4;
      const atLimit = JSON.stringify('😀'.repeat(k)) + 'ab'; // JSON text with trailing junk is fine for size
      expect(bytes(atLimit)).toBe(MAX_FRAME_BYTES);
      expect(values(feed([atLimit + '\n']))).toEqual([{ error: 'malformed_json' }]); // parsed, not refused
      expect(values(feed([atLimit + 'c\n']))).toEqual([{ error: 'frame_too_large' }]);
    });

    it('decides at-limit and over-limit the same at every chunking, CRLF included (small limit)', () => {
      const max = 16;
      const atLimit = '["é中😀",12]'; // [ " é中😀 " , 1 2 ] = 1+1+(2+3+4)+1+1+2 = 16 bytes
      expect(bytes(atLimit)).toBe(max);
      const over = '["é中😀",123]';
      const asciiAtLimit = '["abcdefghijkl"]';
      expect(bytes(asciiAtLimit)).toBe(max);
      for (const [line, want] of [
        [atLimit, [['é中😀', 12], 'next']],
        [over, [{ error: 'frame_too_large' }, 'next']],
        [asciiAtLimit, [['abcdefghijkl'], 'next']],
        [asciiAtLimit + ' ', [{ error: 'frame_too_large' }, 'next']],
      ] as const) {
        for (const ending of ['\n', '\r\n']) {
          const input = line + ending + '"next"\n';
          for (let i = 0; i <= input.length; i++) {
            for (let j = i; j <= input.length; j++) {
              const chunks = [input.slice(0, i), input.slice(i, j), input.slice(j)];
              expect(values(feed(chunks, max)), `${JSON.stringify(chunks)}`).toEqual(want);
            }
          }
        }
      }
    });

    it('refuses a whole oversized line that arrives in one chunk', () => {
      expect(values(feed(['"' + 'x'.repeat(100) + '"\n{"a":1}\n'], 50))).toEqual([{ error: 'frame_too_large' }, { a: 1 }]);
    });

    it('refuses back-to-back oversized frames once each', () => {
      const big = 'x'.repeat(30);
      const out = feed([big, big, '\n', big, big, '\n', '7\n'], 50);
      expect(values(out)).toEqual([{ error: 'frame_too_large' }, { error: 'frame_too_large' }, 7]);
    });
  });

  it('fuzz: every valid frame comes out exactly once, in order, among garbage and random chunking', () => {
    const max = 200;
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = mulberry32(seed);
      const int = (n: number) => Math.floor(rnd() * n);
      const ALPHABET = ['a', 'Z', '0', ' ', '"', '\\', '\n', '\r', '\t', 'é', '中', '😀', '\uD83D', '\uDE00', '\u2028', '{', '}', '\x00'];
      const randText = (n: number) => Array.from({ length: n }, () => ALPHABET[int(ALPHABET.length)]).join('');
      const randValue = (depth: number): unknown => {
        switch (int(depth > 2 ? 4 : 6)) {
          case 0: return int(1e6) - 5e5;
          case 1: return randText(int(12));
          case 2: return rnd() < 0.5;
          case 3: return null;
          case 4: return Array.from({ length: int(4) }, () => randValue(depth + 1));
          default: return Object.fromEntries(Array.from({ length: int(4) }, () => [randText(int(5)), randValue(depth + 1)]));
        }
      };

      let input = '';
      const want: unknown[] = [];
      for (let n = int(30); n > 0; n--) {
        const kind = rnd();
        const eol = rnd() < 0.3 ? '\r\n' : '\n';
        if (kind < 0.6) {
          const v = randValue(0);
          const line = JSON.stringify(v);
          if (utf8Length(line) > max) continue;
          input += line + eol;
          want.push(JSON.parse(line)); // lone surrogates survive the round trip escaped
        } else if (kind < 0.8) {
          // Garbage: starts with "#", so never valid JSON and never blank; no LF inside.
          input += '#' + randText(int(40)).replace(/\n/g, '') + eol;
          want.push({ error: 'malformed_json' });
        } else if (kind < 0.9) {
          input += '#' + 'y'.repeat(max + int(3 * max)) + eol;
          want.push({ error: 'frame_too_large' });
        } else {
          input += ' '.repeat(int(3)) + eol; // blank: nothing comes out
        }
      }

      const chunks: string[] = [];
      for (let at = 0; at < input.length;) {
        const len = rnd() < 0.2 ? 0 : 1 + int(rnd() < 0.5 ? 4 : 300);
        chunks.push(input.slice(at, at + len));
        at += len;
      }
      expect(values(feed(chunks, max)), `seed ${seed}`).toEqual(want);
    }
  });
});

describe('encodeFrame', () => {
  it('writes one line per message that decodes back to the same value', () => {
    const tricky = { data: 'line\nbreak\r\n\u2028\u2029 tab\t nul\x00 lone\uD800 pair😀' };
    const wire = encodeFrame(tricky);
    expect(wire.endsWith('\n')).toBe(true);
    expect(wire.indexOf('\n')).toBe(wire.length - 1); // no newline inside the frame
    expect(values(feed([wire]))).toEqual([tricky]);
  });
});

describe('utf8Length', () => {
  it('matches TextEncoder, lone surrogates counting as U+FFFD', () => {
    const rnd = mulberry32(42);
    const units = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0xe9, 0x4e2d];
    const samples = ['', 'abc', 'é', '中', '😀', '\uD83D', '\uDE00', '\uDE00\uD83D', '\uD83D\uD83D\uDE00'];
    for (let i = 0; i < 500; i++) {
      samples.push(String.fromCharCode(...Array.from({ length: Math.floor(rnd() * 10) }, () => units[Math.floor(rnd() * units.length)]!)));
    }
    for (const s of samples) expect(utf8Length(s), JSON.stringify(s)).toBe(bytes(s));
  });

  /** Long ASCII runs (the scan's fast path) with other units between them: lone surrogates too. */
  function mixed(rnd: () => number, maxRuns: number): string {
    const units = [0xe9, 0x4e2d, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0x7ff, 0x800];
    let out = '';
    for (let r = Math.floor(rnd() * maxRuns); r >= 0; r--) {
      out += 'x'.repeat(Math.floor(rnd() * 150));
      out += String.fromCharCode(...Array.from({ length: Math.floor(rnd() * 4) }, () => units[Math.floor(rnd() * units.length)]!));
    }
    return out;
  }

  it('matches TextEncoder on long text: ASCII runs of 0-150 with other characters and lone surrogates between', () => {
    const rnd = mulberry32(7);
    for (let i = 0; i < 500; i++) {
      const s = mixed(rnd, 6);
      expect(utf8Length(s), JSON.stringify(s)).toBe(bytes(s));
    }
  });

  it('a lone surrogate at a chunk edge stays lone across a long ASCII run (counted piece by piece)', () => {
    const x = 'x'.repeat(100);
    for (const line of [`${x}\uD83D${x}\uDE00${x}`, `${x}\uDBFF${x}${x}\uDC00`, `\uD83D${x}\uDE00\uD83D\uDE00`]) {
      for (let cut = 1; cut < line.length; cut++) {
        const d = createFrameDecoder(240); // past 80 code units every piece is counted as it comes
        const out = [...d.push(line.slice(0, cut)), ...d.push(line.slice(cut))];
        if (bytes(line) > 240) expect(out.filter((f) => !f.ok)).toHaveLength(1);
        else expect(d.pending, `cut at ${cut}`).toBe(bytes(line));
      }
    }
    // Under the limit, so pending is checked at every cut.
    const small = `\uD83D${'y'.repeat(70)}\uDE00`;
    for (let cut = 1; cut < small.length; cut++) {
      const d = createFrameDecoder(240);
      d.push(small.slice(0, cut));
      d.push(small.slice(cut));
      expect(d.pending, `cut at ${cut}`).toBe(bytes(small));
    }
  });

  it('a line of 3-byte characters is refused once past the limit, a third of the limit in code units', () => {
    for (const n of [99, 100, 101, 150]) {
      const wide = '中'.repeat(n);
      const d = createFrameDecoder(300);
      const out = [...d.push(wide.slice(0, 40)), ...d.push(wide.slice(40))];
      expect(out.filter((f) => !f.ok), `${n} x 3 bytes`).toHaveLength(n * 3 > 300 ? 1 : 0);
      if (n * 3 <= 300) expect(d.pending).toBe(n * 3);
    }
  });

  it('the decoder counts pending the same way, at any chunking, below, across and above a third of the limit', () => {
    const rnd = mulberry32(11);
    const limit = 1200; // lines up to ~1,000 bytes: counted only once past 400 code units
    for (let i = 0; i < 400; i++) {
      const line = mixed(rnd, 8);
      const d = createFrameDecoder(limit);
      const errors: DecodedFrame[] = [];
      for (let at = 0; at < line.length; ) {
        const n = 1 + Math.floor(rnd() * 300);
        errors.push(...d.push(line.slice(at, at + n)));
        at += n;
      }
      if (bytes(line) > limit) {
        expect(errors, JSON.stringify(line)).toHaveLength(1);
        expect(errors[0]!.ok).toBe(false);
      } else {
        expect(errors).toEqual([]);
        expect(d.pending, JSON.stringify(line)).toBe(bytes(line));
      }
    }
  });
});
