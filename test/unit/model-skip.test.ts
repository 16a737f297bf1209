/**
 * Output the model can never show is not parsed (TerminalModel's SKIP_SCAN_BYTES): a model that
 * skips plain text pushed out of its history ends exactly where a model that parses every byte
 * does: the same screen frame (cursor, modes, attributes), the same history, the same tracked
 * modes, over random output mixing long runs of plain lines with the things that must stop a
 * skip: escape sequences left open across the text (an OSC title, a DCS), a scroll region,
 * the alternate screen, charsets switched by SO/SI, C1 controls, wide characters, bare line
 * feeds, tabs, resizes, lines that wrap.
 */
import { describe, expect, it } from 'vitest';
import { TerminalModel } from '../../src/runner/model/terminal-model.js';
import { FakeTime } from '../helpers/fake-time.js';
import { mulberry32 } from '../helpers/rng.js';

const ESC = '\x1b';
/** What may come between the runs of plain lines. */
const SPECIAL = [
  `${ESC}[1;31m`, `${ESC}[44m`, `${ESC}[0m`, `${ESC}[2;3H`, `${ESC}[2J`, `${ESC}[K`, `${ESC}[3L`, `${ESC}[2;4r`, `${ESC}[r`, `${ESC}[?1049h`, `${ESC}[?1049l`,
  `${ESC}[?7l`, `${ESC}[?7h`, `${ESC}[4h`, `${ESC}[4l`, `${ESC}[20h`, `${ESC}[20l`, `${ESC}7`, `${ESC}8`, `${ESC}M`, `${ESC}[?25l`, `${ESC}(0`, `${ESC}(B`, `${ESC})0`,
  `${ESC}]0;`, '\x07', `${ESC}]2;t\x07`, `${ESC}P`, `${ESC}\\`, `${ESC}[`, '\x0e', '\x0f', '\u009b2m', '中文', 'e\u0301', '\b', '\t', '\n', '\r\n', 'x',
];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'a', 'bb', 'some longer words here', '{[(<#$%&*+=>)]}', '0123456789'];

function plainLines(rand: () => number, lines: number): string {
  let s = '';
  for (let i = 0; i < lines; i++) {
    const want = Math.floor(rand() * 70); // up to two wraps at 30 columns
    let line = `${i}:`;
    while (line.length < want) line += (rand() < 0.1 ? '\t' : ' ') + WORDS[Math.floor(rand() * WORDS.length)];
    s += line + (rand() < 0.05 ? '\n' : '\r\n');
  }
  return s;
}

function output(rand: () => number, parts: number): Buffer {
  const out: string[] = [];
  for (let i = 0; i < parts; i++) {
    if (rand() < 0.4) out.push(plainLines(rand, Math.floor(rand() * (rand() < 0.3 ? 300 : 40))));
    else out.push(SPECIAL[Math.floor(rand() * SPECIAL.length)]!);
  }
  return Buffer.from(out.join(''), 'utf8');
}

/** Cuts on character boundaries, as the PTY's chunker does (a cut inside a character moves to its start). */
function chunksOf(bytes: Buffer, rand: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    let end = Math.min(bytes.length, at + 1 + Math.floor(rand() * (rand() < 0.2 ? 3000 : 300)));
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
    out.push(bytes.subarray(at, end));
    at = end;
  }
  return out;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

async function settled(m: TerminalModel, time: FakeTime) {
  let done: { frame: string; history: string; modes: unknown; title: string } | null = null;
  m.whenSettled(
    () => (done = { frame: m.screenFrame(), history: m.historySlice(0, m.historyLength), modes: m.trackedModes, title: m.trackedModes.title }),
  );
  const deadline = Date.now() + 30_000;
  while (!done) {
    if (Date.now() > deadline) throw new Error('the model did not settle');
    time.advance(20);
    await tick();
  }
  return done;
}

describe('the model skipping what it can never show', () => {
  it.each([1, 2, 3, 4, 5, 6])('ends exactly where a model that parses everything does (seed %i)', async (seed) => {
    const rand = mulberry32(seed);
    const chunks = chunksOf(output(rand, 1500), rand);
    const time = new FakeTime();
    const opts = { cols: 30, rows: 6, scrollback: 20, clock: time, scheduler: time };
    const skipping = new TerminalModel({ ...opts, skipScanBytes: 1 + Math.floor(rand() * 2000) });
    const parsing = new TerminalModel({ ...opts, skipScanBytes: Number.POSITIVE_INFINITY });
    let checks = 0;
    let nextCheck = 100;
    for (let i = 0; i < chunks.length; i++) {
      skipping.write(chunks[i]!, i + 1);
      parsing.write(chunks[i]!, i + 1);
      if (i === Math.floor(chunks.length / 2)) {
        skipping.resize(41, 9);
        parsing.resize(41, 9);
      }
      // The parse runs between some writes, so the backlog is looked at from many places.
      if (rand() < 0.2) {
        if (rand() < 0.5) time.advance(20);
        await tick();
      }
      // Compared along the way too: a skip that went wrong shows before later output covers it.
      if (i === chunks.length - 1 || i >= nextCheck) {
        expect(await settled(skipping, time)).toEqual(await settled(parsing, time));
        nextCheck = i + 20 + Math.floor(rand() * 150);
        checks++;
      }
    }
    expect(checks).toBeGreaterThan(10);
    expect(parsing.skipped).toBe(0);
    expect(skipping.skipped).toBeGreaterThan(0);
    skipping.dispose();
    parsing.dispose();
  }, 60_000);

  // Each breaks the skip's premise: text inside a string sequence, lines kept outside a scroll
  // region, a charset switched by a control character, line feeds that never return the carriage.
  it.each([
    ['an OSC title left open', `${ESC}]0;`, '\r\n', `\x07`],
    ['a DCS left open', `${ESC}P1$q`, '\r\n', `${ESC}\\`],
    ['a scroll region below the cursor', `${ESC}[3;5r`, '\r\n', `${ESC}[r`],
    ['a scroll region above the cursor', `${ESC}[1;3r${ESC}[6;1H`, '\r\n', `${ESC}[r`, 'long long long '],
    ['SO with G1 as line drawing', `${ESC})0\x0e`, '\r\n', '\x0f'],
    ['SO inside the text', `${ESC})0`, '\r\n', '', '\x0e'],
    ['an SGR inside the text', '', '\r\n', '', `${ESC}[7m`],
    ['a C1 control inside the text', '', '\r\n', '', '\u009b7m'],
    ['bare line feeds', 'abc', '\n', '', 'none'],
    ['C1 controls', '', '\u009b7m\r\n', ''],
    ['the alternate screen', `${ESC}[?1049h`, '\r\n', `${ESC}[?1049l`],
  ])('ends where a model that parses everything does with %s', async (_what, before, eol, after, line200 = 'many') => {
    const rand = mulberry32(7);
    let text = 'first\r\n' + before;
    // Lines that wrap, every 7th ('many'); or none ('none'); or only line 200 has more, the given text (a tail
    // that shows on a row that never scrolls, a mode that stays on).
    const more = (i: number) => (line200 === 'many' ? (i % 7 === 0 ? 'long '.repeat(12) : '') : line200 !== 'none' && i === 200 ? line200 : '');
    for (let i = 0; i < 400; i++) text += `${i} ${'qrstuvwxyz'.slice(0, Math.floor(rand() * 10))}${more(i)}${eol}`;
    text += after + 'last\r\n';
    const chunks = chunksOf(Buffer.from(text, 'utf8'), rand);
    const time = new FakeTime();
    const opts = { cols: 30, rows: 6, scrollback: 20, clock: time, scheduler: time };
    const skipping = new TerminalModel({ ...opts, skipScanBytes: 1 });
    const parsing = new TerminalModel({ ...opts, skipScanBytes: Number.POSITIVE_INFINITY });
    for (let i = 0; i < chunks.length; i++) {
      skipping.write(chunks[i]!, i + 1);
      parsing.write(chunks[i]!, i + 1);
      if (i % 3 === 0) await tick();
    }
    expect(await settled(skipping, time)).toEqual(await settled(parsing, time));
    skipping.dispose();
    parsing.dispose();
  }, 60_000);

  it('skips most of a long plain burst, and the screen and history are its last lines', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 80, rows: 24, scrollback: 100, clock: time, scheduler: time, skipScanBytes: 64 * 1024 });
    let s = '';
    for (let i = 0; s.length < 2 * 1024 * 1024; i++) s += `line ${String(i).padStart(7, '0')} ${'abcdefghij'.repeat(6)}\r\n`;
    const bytes = Buffer.from(s);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 4095) chunks.push(bytes.subarray(at, at + 4095));
    chunks.forEach((c, i) => m.write(c, i + 1));
    const got = await settled(m, time);
    expect(m.skipped).toBeGreaterThan(bytes.length / 2);
    const reference = new TerminalModel({ cols: 80, rows: 24, scrollback: 100, clock: time, scheduler: time, skipScanBytes: Number.POSITIVE_INFINITY });
    chunks.forEach((c, i) => reference.write(c, i + 1));
    expect(got).toEqual(await settled(reference, time));
    m.dispose();
    reference.dispose();
  }, 60_000);

  it('once the model caught up after a skipped burst, a little output is parsed at once again', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 80, rows: 24, scrollback: 100, clock: time, scheduler: time, skipScanBytes: 64 * 1024 });
    let s = '';
    for (let i = 0; s.length < 1024 * 1024; i++) s += `line ${i} ${'abcdefghij'.repeat(5)}\r\n`;
    const bytes = Buffer.from(s);
    let seq = 0;
    for (let at = 0; at < bytes.length; at += 4095) m.write(bytes.subarray(at, at + 4095), ++seq);
    await settled(m, time);
    expect(m.skipped).toBeGreaterThan(0);
    // Hot again (time does not move), a keystroke's echo: parsed without waiting for the output to go quiet.
    m.write(Buffer.from('x'), ++seq);
    // xterm parses on its own (real) timer; the model's rests are on the fake clock, which stays put.
    for (const deadline = Date.now() + 2000; Date.now() < deadline && m.parsedSeq < seq; ) await new Promise<void>((r) => setTimeout(r, 5));
    expect(m.parsedSeq).toBe(seq);
    m.dispose();
  });
});
