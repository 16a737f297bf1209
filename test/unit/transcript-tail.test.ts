import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UsageEntry, UsageReader } from '../../src/core/usage/usage-types.js';
import { TranscriptTail } from '../../src/state/usage/transcript-tail.js';

/** A line reader of the test's own: `<model> <input> <output>`, its calls counted; anything else is skipped. */
function countingReader(): UsageReader & { lines: string[] } {
  const lines: string[] = [];
  return {
    mode: 'lines',
    lines,
    initial: () => ({ n: 0 }),
    line(text, state) {
      lines.push(text);
      (state as { n: number }).n += 1;
      const m = /^(\S+) (\d+) (\d+)$/.exec(text);
      if (!m) return 'skip';
      return [{ at: null, model: m[1]!, tokens: { input: Number(m[2]), output: Number(m[3]), cacheWrite: 0, cacheRead: 0 } }];
    },
  };
}

const inputs = (es: UsageEntry[]) => es.map((e) => e.tokens.input);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-tail-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a transcript read a piece at a time', () => {
  it('reads only what the file grew by, and keeps a last line until its newline', () => {
    const f = path.join(dir, 't.jsonl');
    fs.writeFileSync(f, 'm 1 1\nm 2 2\nm 3');
    const reader = countingReader();
    const tail = new TranscriptTail(f, reader);
    const first = tail.read();
    expect(first.restarted).toBe(false);
    expect(inputs(first.entries)).toEqual([1, 2]);
    expect(tail.read().entries).toEqual([]);
    fs.appendFileSync(f, '0 3\nm 4 4\n');
    expect(inputs(tail.read().entries)).toEqual([30, 4]);
    // Each line went to the reader once: nothing was read again.
    expect(reader.lines).toEqual(['m 1 1', 'm 2 2', 'm 30 3', 'm 4 4']);
  });

  it('reads a file larger than its pieces whole and right: lines across pieces, a line longer than one, characters cut', () => {
    const f = path.join(dir, 'big.jsonl');
    const reader: UsageReader = {
      mode: 'lines',
      initial: () => null,
      line: (t) => {
        const m = /^(\d+) é+ (.*)$/su.exec(t);
        return m ? [{ at: null, model: 'm', tokens: { input: Number(m[1]), output: m[2]!.length, cacheWrite: 0, cacheRead: 0 } }] : 'skip';
      },
    };
    // Lines of many lengths with two-byte characters: some cross the 4 MiB pieces, one is 5 MiB long.
    let text = '';
    let want = 0;
    let wantOut = 0;
    for (let i = 0; i < 3000; i++) {
      const pad = 'x'.repeat((i * 7919) % 5000);
      text += `${i} ${'é'.repeat(1 + (i % 5))} ${pad}\n`;
      want += i;
      wantOut += pad.length;
      if (i === 1500) {
        const long = 'y'.repeat(5 * 1024 * 1024);
        text += `7 é ${long}\n`;
        want += 7;
        wantOut += long.length;
      }
    }
    fs.writeFileSync(f, text);
    expect(fs.statSync(f).size).toBeGreaterThan(12 * 1024 * 1024);
    const r = new TranscriptTail(f, reader).read();
    expect(r.skipped).toBe(0);
    expect(r.entries).toHaveLength(3001);
    expect(r.entries.reduce((a, e) => a + e.tokens.input, 0)).toBe(want);
    expect(r.entries.reduce((a, e) => a + e.tokens.output, 0)).toBe(wantOut);
  });

  it('keeps a character cut between two reads whole', () => {
    const f = path.join(dir, 't.jsonl');
    const reader: UsageReader = { mode: 'lines', initial: () => null, line: (t) => [{ at: null, model: t, tokens: { input: 1, output: 0, cacheWrite: 0, cacheRead: 0 } }] };
    const bytes = Buffer.from('modèle-é\n');
    fs.writeFileSync(f, bytes.subarray(0, 5));
    const tail = new TranscriptTail(f, reader);
    expect(tail.read().entries).toEqual([]);
    fs.appendFileSync(f, bytes.subarray(5));
    expect(tail.read().entries.map((e) => e.model)).toEqual(['modèle-é']);
  });

  it('reads a file that shrank, or was replaced, again from its start', () => {
    const f = path.join(dir, 't.jsonl');
    fs.writeFileSync(f, 'm 1 1\nm 2 2\n');
    const tail = new TranscriptTail(f, countingReader());
    expect(inputs(tail.read().entries)).toEqual([1, 2]);
    fs.writeFileSync(f, 'm 7 7\n');
    const shrunk = tail.read();
    expect(shrunk.restarted).toBe(true);
    expect(inputs(shrunk.entries)).toEqual([7]);
    // Replaced by another file, larger than what was read: a new inode is a new transcript.
    const other = path.join(dir, 'other');
    fs.writeFileSync(other, 'm 8 8\nm 9 9\nm 10 10\n');
    fs.renameSync(other, f);
    const replaced = tail.read();
    expect(replaced.restarted).toBe(true);
    expect(inputs(replaced.entries)).toEqual([8, 9, 10]);
  });

  it('skips a line it cannot parse, counts it, and reports the first one once', () => {
    const f = path.join(dir, 't.jsonl');
    fs.writeFileSync(f, 'm 1 1\n{oops\nm 2 2\n');
    const tail = new TranscriptTail(f, countingReader());
    const r = tail.read();
    expect(inputs(r.entries)).toEqual([1, 2]);
    expect(r.skipped).toBe(1);
    expect(r.firstSkip).toBe('line 2: {oops');
    fs.appendFileSync(f, 'also bad\n');
    const again = tail.read();
    expect(again.skipped).toBe(2);
    expect(again.firstSkip).toBeUndefined();
  });

  it('says why a file cannot be read, and reads it once it is there', () => {
    const f = path.join(dir, 'later.jsonl');
    const tail = new TranscriptTail(f, countingReader());
    expect(tail.read().error).toBe('ENOENT');
    fs.writeFileSync(f, 'm 5 5\n');
    expect(inputs(tail.read().entries)).toEqual([5]);
  });

  it('reads a whole-file transcript again only when its size or mtime changed', () => {
    const f = path.join(dir, 'chat.json');
    let parses = 0;
    const reader: UsageReader = {
      mode: 'whole',
      file(text) {
        parses += 1;
        try {
          return (JSON.parse(text) as number[]).map((n) => ({ at: null, model: 'g', tokens: { input: n, output: 0, cacheWrite: 0, cacheRead: 0 } }));
        } catch {
          return 'skip';
        }
      },
    };
    fs.writeFileSync(f, '[1,2]');
    const tail = new TranscriptTail(f, reader);
    expect(inputs(tail.read().entries)).toEqual([1, 2]);
    expect(tail.read().entries).toEqual([]);
    expect(parses).toBe(1);
    fs.writeFileSync(f, '[1,2,3]');
    const r = tail.read();
    expect(r.restarted).toBe(true);
    expect(inputs(r.entries)).toEqual([1, 2, 3]);
    // Caught mid-write: counted as skipped, and what was read stands (no restart).
    fs.writeFileSync(f, '[1,2,3,');
    const cut = tail.read();
    expect(cut.restarted).toBe(false);
    expect(cut.skipped).toBe(1);
    expect(cut.firstSkip).toMatch(/whole file/);
  });
});
