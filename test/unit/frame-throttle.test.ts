/**
 * FrameThrottle (src/client/frame-throttle.ts), the board feed's notifications, on FakeTime: the
 * first change after a quiet spell at the next timer, the changes within a frame as one at its
 * end, never two calls closer than the interval, nothing after dispose.
 */
import { describe, expect, it } from 'vitest';
import { FrameThrottle } from '../../src/client/frame-throttle.js';
import { FakeTime } from '../helpers/fake-time.js';

describe('FrameThrottle', () => {
  it('calls at once after a quiet spell, then at most once per interval', () => {
    const time = new FakeTime();
    const calls: number[] = [];
    const t = new FrameThrottle(time, time, 16, () => calls.push(time.now()));
    const start = time.now();
    t.request(); // the start counts as a call: this one waits for the interval
    time.advance(16);
    expect(calls).toEqual([start + 16]);
    time.advance(100); // quiet
    t.request();
    t.request(); // the same turn: one call
    time.advance(0);
    expect(calls).toEqual([start + 16, start + 116]);
    time.advance(5);
    t.request(); // 5 ms after the last call: at the end of its frame
    time.advance(10);
    expect(calls).toHaveLength(2);
    time.advance(1);
    expect(calls).toEqual([start + 16, start + 116, start + 132]);
    for (let i = 0; i < 50; i++) {
      t.request();
      time.advance(3);
    }
    const gaps = calls.slice(1).map((c, i) => c - calls[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(16);
    t.dispose();
    t.request();
    time.advance(100);
    expect(time.pending).toBe(0);
  });
});
