import { describe, expect, it } from 'vitest';
import { DEFAULT_RING_BYTES, DEFAULT_RING_CHUNKS, OutputRing, type RingChunk } from '../../src/core/terminal/output-ring.js';
import { mulberry32 } from '../helpers/rng.js';


const seqs = (chunks: RingChunk[] | null) => chunks?.map((c) => c.seq) ?? null;

describe('OutputRing', () => {
  it('numbers chunks from 0 by default, one up per push', () => {
    const r = new OutputRing();
    expect(r.nextSeq).toBe(0);
    expect(r.push('a')).toEqual({ seq: 0, data: 'a' });
    expect(r.push('b')).toEqual({ seq: 1, data: 'b' });
    expect(r.nextSeq).toBe(2);
    expect(r.since(0)).toEqual([{ seq: 0, data: 'a' }, { seq: 1, data: 'b' }]);
  });

  it('starts numbering at the firstSeq option', () => {
    const r = new OutputRing(10, 100, 1000);
    expect(r.nextSeq).toBe(1000);
    expect(r.firstSeq).toBe(1000);
    expect(r.holds(1000)).toBe(true);
    expect(r.since(1000)).toEqual([]);
    expect(r.holds(999)).toBe(false); // nothing before the start was ever ours
    expect(r.push('x').seq).toBe(1000);
    expect(r.since(1000)).toEqual([{ seq: 1000, data: 'x' }]);
    expect(r.since(999)).toBeNull();
  });

  it('has the documented defaults', () => {
    const r = new OutputRing();
    for (let i = 0; i < DEFAULT_RING_CHUNKS + 5; i++) r.push('x');
    expect(r.size).toBe(DEFAULT_RING_CHUNKS);
    const big = new OutputRing();
    const mib = 'y'.repeat(1024 * 1024);
    for (let i = 0; i < 6; i++) big.push(mib);
    expect(big.byteSize).toBeLessThanOrEqual(DEFAULT_RING_BYTES);
    expect(big.size).toBe(4);
  });

  describe('empty ring', () => {
    it('holds exactly nextSeq and returns nothing from it', () => {
      const r = new OutputRing();
      expect(r.size).toBe(0);
      expect(r.byteSize).toBe(0);
      expect(r.firstSeq).toBe(r.nextSeq);
      expect(r.holds(0)).toBe(true);
      expect(r.since(0)).toEqual([]);
      expect(r.holds(1)).toBe(false);
      expect(r.since(1)).toBeNull();
    });
  });

  describe('eviction', () => {
    it('by chunk count keeps the newest maxChunks', () => {
      const r = new OutputRing(3, 1_000_000);
      for (let i = 0; i < 5; i++) r.push(`c${i}`);
      expect(r.size).toBe(3);
      expect(r.firstSeq).toBe(2);
      expect(r.since(2)).toEqual([{ seq: 2, data: 'c2' }, { seq: 3, data: 'c3' }, { seq: 4, data: 'c4' }]);
      expect(r.byteSize).toBe(6);
      expect(r.since(1)).toBeNull();
    });

    it('by bytes drops the oldest until the rest fit', () => {
      const r = new OutputRing(100, 10);
      r.push('aaaa');
      r.push('bbbb');
      expect(r.size).toBe(2);
      r.push('cccc'); // 12 > 10
      expect(seqs(r.since(r.firstSeq))).toEqual([1, 2]);
      expect(r.byteSize).toBe(8);
      r.push('dddddddd'); // 4 + 8 = 12 > 10: only the newest fits
      expect(seqs(r.since(r.firstSeq))).toEqual([3]);
      expect(r.byteSize).toBe(8);
    });

    it('counts bytes in UTF-8, as they go on the wire', () => {
      const r = new OutputRing(100, 10);
      r.push('ééé'); // 3 code units, 6 bytes
      expect(r.byteSize).toBe(6);
      r.push('ééé'); // 12 bytes > 10
      expect(r.size).toBe(1);
      expect(r.firstSeq).toBe(1);
      r.push('😀'); // 4 bytes, 6 + 4 = 10 fits
      expect(r.size).toBe(2);
      expect(r.byteSize).toBe(10);
    });

    it('always keeps the newest chunk, even one over the byte limit', () => {
      const r = new OutputRing(100, 4);
      r.push('ab');
      r.push('x'.repeat(100));
      expect(r.size).toBe(1);
      expect(r.since(1)).toEqual([{ seq: 1, data: 'x'.repeat(100) }]);
      expect(r.holds(0)).toBe(false);
      r.push('z');
      expect(seqs(r.since(r.firstSeq))).toEqual([2]);
      expect(r.byteSize).toBe(1);
    });

    it('keeps one chunk with maxChunks 1, and with zero limits', () => {
      const one = new OutputRing(1, 1000);
      one.push('a');
      one.push('b');
      expect(one.since(1)).toEqual([{ seq: 1, data: 'b' }]);
      const none = new OutputRing(0, 0);
      none.push('a');
      none.push('b');
      expect(none.since(1)).toEqual([{ seq: 1, data: 'b' }]);
      expect(none.since(0)).toBeNull();
    });

    it('keeps empty chunks (they still take a seq)', () => {
      const r = new OutputRing(3, 0);
      r.push('');
      r.push('');
      expect(seqs(r.since(0))).toEqual([0, 1]);
    });
  });

  describe('holds() and since()', () => {
    const ring = () => {
      const r = new OutputRing(3, 1000);
      for (let i = 0; i < 6; i++) r.push(`c${i}`); // holds 3, 4, 5; nextSeq 6
      return r;
    };

    it('seq == nextSeq: nothing missed, nothing to send', () => {
      const r = ring();
      expect(r.holds(6)).toBe(true);
      expect(r.since(6)).toEqual([]);
    });

    it('seq == firstSeq: everything held', () => {
      expect(seqs(ring().since(3))).toEqual([3, 4, 5]);
    });

    it('seq in the middle: the tail from it', () => {
      expect(ring().since(4)).toEqual([{ seq: 4, data: 'c4' }, { seq: 5, data: 'c5' }]);
    });

    it('seq before firstSeq: some were dropped, so null', () => {
      const r = ring();
      expect(r.holds(2)).toBe(false);
      expect(r.since(2)).toBeNull();
      expect(r.since(0)).toBeNull();
      expect(r.since(-1)).toBeNull();
    });

    it('seq beyond nextSeq: never produced, so null', () => {
      const r = ring();
      expect(r.holds(7)).toBe(false);
      expect(r.since(7)).toBeNull();
      expect(r.since(Number.MAX_SAFE_INTEGER)).toBeNull();
    });

    it('a seq that is not a whole number is never held', () => {
      const r = ring();
      for (const bad of [3.5, Number.NaN, Infinity, -Infinity]) {
        expect(r.holds(bad), String(bad)).toBe(false);
        expect(r.since(bad), String(bad)).toBeNull();
      }
    });

    it('a returned list does not change when more is pushed', () => {
      const r = ring();
      const got = r.since(4)!;
      r.push('c6');
      r.push('c7');
      expect(seqs(got)).toEqual([4, 5]);
    });
  });

  describe('after many pushes (compaction)', () => {
    it('100k pushes with a small chunk bound: since() stays exact', () => {
      const r = new OutputRing(7, 1_000_000);
      const bad: string[] = [];
      for (let i = 0; i < 100_000; i++) {
        r.push(String(i));
        const first = Math.max(0, i - 6);
        const from = Math.max(first, i - 2);
        const tail = r.since(from);
        const want = Array.from({ length: i - from + 1 }, (_, k) => String(from + k)).join();
        if (r.firstSeq !== first || tail?.map((c) => c.data).join() !== want || r.since(first - 1) !== null) bad.push(`push ${i}`);
        if (bad.length > 5) break;
      }
      expect(bad).toEqual([]);
      expect(r.since(100_000 - 7)!.map((c) => c.data)).toEqual(Array.from({ length: 7 }, (_, k) => String(100_000 - 7 + k)));
      expect(r.since(100_000 - 8)).toBeNull();
      expect(r.since(100_000)).toEqual([]);
    });

    it('100k pushes with a small byte bound: since() stays exact and bytes add up', () => {
      const r = new OutputRing(1_000_000, 20);
      for (let i = 0; i < 100_000; i++) r.push(i % 3 === 0 ? 'é'.repeat(i % 7) : 'x'.repeat(i % 11));
      const all = r.since(r.firstSeq)!;
      expect(all.length).toBe(r.size);
      expect(all.at(-1)!.seq).toBe(99_999);
      all.forEach((c, k) => expect(c.seq).toBe(r.firstSeq + k));
      const bytes = all.reduce((n, c) => n + new TextEncoder().encode(c.data).length, 0);
      expect(r.byteSize).toBe(bytes);
      expect(bytes).toBeLessThanOrEqual(20);
      // The chunk just before firstSeq would not have fitted.
      expect(r.holds(r.firstSeq - 1)).toBe(false);
    });

    it('matches a simple model under random bounds and sizes (seeded)', () => {
      const enc = new TextEncoder();
      for (let seed = 1; seed <= 20; seed++) {
        const rnd = mulberry32(seed);
        const maxChunks = 1 + Math.floor(rnd() * 50);
        const maxBytes = Math.floor(rnd() * 400);
        const start = Math.floor(rnd() * 1e6);
        const r = new OutputRing(maxChunks, maxBytes, start);
        const model: { seq: number; data: string; bytes: number }[] = [];
        let total = 0;
        let next = start;
        for (let i = 0; i < 3000; i++) {
          const data = ['a', 'é', '中', '😀'][Math.floor(rnd() * 4)]!.repeat(Math.floor(rnd() * 30));
          const pushed = r.push(data);
          const bytes = enc.encode(data).length;
          model.push({ seq: next++, data, bytes });
          total += bytes;
          while (model.length > 1 && (model.length > maxChunks || total > maxBytes)) total -= model.shift()!.bytes;

          const probe = model[0]!.seq - 2 + Math.floor(rnd() * (model.length + 4));
          const want = probe < model[0]!.seq || probe > next ? null : model.filter((c) => c.seq >= probe).map(({ seq, data }) => ({ seq, data }));
          const state = { seq: pushed.seq, nextSeq: r.nextSeq, firstSeq: r.firstSeq, size: r.size, byteSize: r.byteSize, since: r.since(probe) };
          const expected = { seq: next - 1, nextSeq: next, firstSeq: model[0]!.seq, size: model.length, byteSize: total, since: want };
          if (JSON.stringify(state) !== JSON.stringify(expected)) {
            expect(state, `seed ${seed} push ${i} probe ${probe}`).toEqual(expected);
          }
        }
      }
    });
  });
});
