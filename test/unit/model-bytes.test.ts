/**
 * The model fed the PTY's bytes is the model fed the text: for any output cut anywhere (inside
 * characters, inside escape sequences, with bytes that are not UTF-8 among them), a model given
 * each chunk's bytes where they are valid UTF-8 (and its text where not, as the session does)
 * ends with the same screen frame and history, byte for byte, as a model given every chunk's
 * text. That is what keeps the exact-snapshot property when the socket clients get the text.
 */
import { describe, expect, it } from 'vitest';
import { TerminalModel } from '../../src/runner/model/terminal-model.js';
import { Utf8Chunker, type PtyOutput } from '../../src/runner/pty/utf8-chunker.js';
import { FakeTime } from '../helpers/fake-time.js';
import { mulberry32 } from '../helpers/rng.js';

const ESC = '\x1b';
/** Pieces of output a program prints: text of every width, SGR, cursor moves, erases, wide and combining characters, a BOM, C1 controls, scrolling. */
const TEXT_PIECES = [
  'hello ', 'wörld ', '€uro ', '中文字 ', '😀', '𝄞', 'e\u0301', 'ﬁ', '\ufeff', '\u0085', '\u009b1m', '\r\n', '\n', '\t', '\b',
  `${ESC}[1;31m`, `${ESC}[38;5;208m`, `${ESC}[48;2;1;2;3m`, `${ESC}[0m`, `${ESC}[4:3m`, `${ESC}[2;5H`, `${ESC}[K`, `${ESC}[2J`, `${ESC}[3L`,
  `${ESC}]0;títle 😀\x07`, `${ESC}]8;;http://x/é\x1b\\link${ESC}]8;;\x1b\\`, `${ESC}[?1049h`, `${ESC}[?1049l`, `${ESC}7`, `${ESC}8`, `${ESC}[5;20r`, `${ESC}[r`,
];
/** Bytes that are not UTF-8: a byte never used, a lone continuation, an overlong, a surrogate, a character cut short. */
const BAD_PIECES = [[0xff], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82, 0x41]];

function output(rand: () => number, pieces: number, withBad: boolean): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < pieces; i++) {
    if (withBad && rand() < 0.01) parts.push(Buffer.from(BAD_PIECES[Math.floor(rand() * BAD_PIECES.length)]!));
    else parts.push(Buffer.from(TEXT_PIECES[Math.floor(rand() * TEXT_PIECES.length)]!, 'utf8'));
  }
  return Buffer.concat(parts);
}

function chunksOf(bytes: Buffer, rand: () => number): PtyOutput[] {
  const chunker = new Utf8Chunker();
  const out: PtyOutput[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = 1 + Math.floor(rand() * (rand() < 0.1 ? 5000 : 40));
    const c = chunker.push(bytes.subarray(at, at + n));
    if (c) out.push(c);
    at += n;
  }
  const last = chunker.flush();
  if (last) out.push(last);
  return out;
}

async function settled(m: TerminalModel, time: FakeTime): Promise<{ frame: string; history: string }> {
  let done: { frame: string; history: string } | null = null;
  m.whenSettled(() => (done = { frame: m.screenFrame(), history: m.historySlice(0, m.historyLength) }));
  const deadline = Date.now() + 30_000;
  while (!done) {
    if (Date.now() > deadline) throw new Error('the model did not settle');
    time.advance(20);
    await new Promise<void>((r) => setImmediate(r));
  }
  return done;
}

describe('the model fed bytes', () => {
  it.each([
    [1, false],
    [2, false],
    [3, true],
    [4, true],
    [5, true],
  ])('ends exactly where the model fed text does (seed %i, bytes that are not UTF-8: %s)', async (seed, withBad) => {
    const rand = mulberry32(seed);
    const chunks = chunksOf(output(rand, 20_000, withBad), rand);
    expect(chunks.some((c) => c.raw === null)).toBe(withBad);
    const time = new FakeTime();
    const opts = { cols: 50, rows: 12, scrollback: 200, clock: time, scheduler: time };
    const byText = new TerminalModel(opts);
    const byBytes = new TerminalModel(opts);
    chunks.forEach((c, i) => {
      byText.write(c.text, i + 1);
      byBytes.write(c.raw ?? c.text, i + 1);
      if (i === Math.floor(chunks.length / 2)) {
        byText.resize(61, 15);
        byBytes.resize(61, 15);
      }
    });
    const [a, b] = [await settled(byText, time), await settled(byBytes, time)];
    expect(b.frame).toBe(a.frame);
    expect(b.history).toBe(a.history);
    expect(byBytes.trackedModes).toEqual(byText.trackedModes);
    byText.dispose();
    byBytes.dispose();
  });
});
