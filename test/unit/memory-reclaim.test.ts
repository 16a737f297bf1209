import { describe, expect, it } from 'vitest';
import { MemoryReclaim, RECLAIM_GAP_MS, RECLAIM_HEAP_BYTES, RECLAIM_QUIET_MS, RECLAIM_TRIES } from '../../src/runner/session/memory-reclaim.js';
import { FakeTime } from '../helpers/fake-time.js';

/** A runner's view for the reclaim: the program's output stamps, a heap size the test sets, the collections counted. */
function setup(heap = RECLAIM_HEAP_BYTES * 2, shrinksOn = 1) {
  const time = new FakeTime();
  const state = { lastOutput: Number.NEGATIVE_INFINITY, heap, collections: [] as number[], lines: [] as string[] };
  const reclaim = new MemoryReclaim({
    clock: time,
    scheduler: time,
    lastOutputAt: () => state.lastOutput,
    heapBytes: () => state.heap,
    // V8 shrinks the heap at the `shrinksOn`-th collection (a pair can come too early and shrink nothing).
    collect: () => {
      state.collections.push(time.now());
      if (state.collections.length >= shrinksOn) state.heap = RECLAIM_HEAP_BYTES / 2;
    },
    log: (line) => state.lines.push(line),
  });
  const print = () => {
    state.lastOutput = time.now();
    reclaim.output();
  };
  return { time, state, reclaim, print };
}

describe('memory reclaim after a burst', () => {
  it('collects twice, RECLAIM_GAP_MS apart, once the program has been quiet for RECLAIM_QUIET_MS, and says so', () => {
    const { time, state, print } = setup();
    const start = time.now();
    print();
    time.advance(RECLAIM_QUIET_MS - 1);
    expect(state.collections).toEqual([]);
    time.advance(1);
    time.advance(RECLAIM_GAP_MS);
    expect(state.collections).toEqual([start + RECLAIM_QUIET_MS, start + RECLAIM_QUIET_MS + RECLAIM_GAP_MS]);
    expect(state.lines).toEqual([`quiet after a burst: V8 heap ${(RECLAIM_HEAP_BYTES * 2 / 1048576).toFixed(1)} -> ${(RECLAIM_HEAP_BYTES / 2 / 1048576).toFixed(1)} MiB`]);
    expect(time.pending).toBe(0);
  });

  it('waits on while the program keeps printing, with one timer for the whole burst', () => {
    const { time, state, print } = setup();
    for (let i = 0; i < 100; i++) {
      print();
      time.advance(100);
      expect(time.pending).toBe(1);
    }
    const lastOutput = state.lastOutput;
    time.advance(RECLAIM_QUIET_MS);
    expect(state.collections[0]).toBe(lastOutput + RECLAIM_QUIET_MS);
  });

  it('leaves a small heap alone: a quiet shell costs no collection', () => {
    const { time, state, print } = setup(RECLAIM_HEAP_BYTES);
    print();
    time.advance(RECLAIM_QUIET_MS + RECLAIM_GAP_MS);
    expect(state.collections).toEqual([]);
    expect(time.pending).toBe(0);
    // The next burst is looked at again.
    state.heap = RECLAIM_HEAP_BYTES + 1;
    print();
    time.advance(RECLAIM_QUIET_MS + RECLAIM_GAP_MS);
    expect(state.collections).toHaveLength(2);
  });

  it('dispose cancels a waiting look', () => {
    const { time, state, reclaim, print } = setup();
    print();
    reclaim.dispose();
    time.advance(RECLAIM_QUIET_MS * 2);
    expect(state.collections).toEqual([]);
  });

  it('tries again after another quiet spell when a pair gave nothing back, up to RECLAIM_TRIES pairs', () => {
    const { time, state, print } = setup(RECLAIM_HEAP_BYTES * 2, 3); // the second pair shrinks it
    const start = time.now();
    print();
    time.advance(RECLAIM_QUIET_MS + RECLAIM_GAP_MS);
    expect(state.collections).toHaveLength(2);
    expect(state.lines).toEqual([`quiet after a burst: V8 heap 32.0 -> 32.0 MiB; trying again in ${RECLAIM_QUIET_MS / 1000} s`]);
    time.advance(RECLAIM_QUIET_MS + RECLAIM_GAP_MS);
    const first = start + RECLAIM_QUIET_MS;
    const second = first + RECLAIM_GAP_MS + RECLAIM_QUIET_MS;
    expect(state.collections).toEqual([first, first + RECLAIM_GAP_MS, second, second + RECLAIM_GAP_MS]);
    expect(state.lines[1]).toBe('quiet after a burst: V8 heap 32.0 -> 8.0 MiB');
    expect(time.pending).toBe(0);
  });

  it('gives up after RECLAIM_TRIES pairs in one quiet spell, and starts over after the next output', () => {
    const { time, state, print } = setup(RECLAIM_HEAP_BYTES * 2, Number.POSITIVE_INFINITY); // never shrinks
    print();
    time.advance((RECLAIM_QUIET_MS + RECLAIM_GAP_MS) * (RECLAIM_TRIES + 2));
    expect(state.collections).toHaveLength(2 * RECLAIM_TRIES);
    expect(state.lines.at(-1)).toBe('quiet after a burst: V8 heap 32.0 -> 32.0 MiB');
    expect(time.pending).toBe(0);
    print();
    time.advance(RECLAIM_QUIET_MS + RECLAIM_GAP_MS);
    expect(state.collections).toHaveLength(2 * RECLAIM_TRIES + 2);
  });
});
