/**
 * FrameThrottle (src/client/feed/frame-throttle.ts), the board feed's notifications, on FakeTime: the
 * first change after a quiet spell at once (a microtask: no timer), the changes within a frame as
 * one at its end, never two calls closer than the interval, nothing after dispose.
 */
import { describe, expect, it } from 'vitest';
import { FrameThrottle } from '../../src/client/feed/frame-throttle.js';
import { FakeTime } from '../helpers/fake-time.js';

const microtasks = () => new Promise<void>((r) => queueMicrotask(r));

describe('FrameThrottle', () => {
  it('calls at once after a quiet spell, then at most once per interval', async () => {
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
    expect(time.pending).toBe(0); // no timer: no clock time passes before the call
    await microtasks();
    expect(calls).toEqual([start + 16, start + 116]);
    time.advance(5);
    t.request(); // 5 ms after the last call: at the end of its frame
    await microtasks();
    time.advance(10);
    expect(calls).toHaveLength(2);
    time.advance(1);
    expect(calls).toEqual([start + 16, start + 116, start + 132]);
    for (let i = 0; i < 50; i++) {
      t.request();
      await microtasks();
      time.advance(3);
    }
    const gaps = calls.slice(1).map((c, i) => c - calls[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(16);
    t.dispose();
    t.request();
    await microtasks();
    time.advance(100);
    expect(time.pending).toBe(0);
    expect(calls.at(-1)).toBeLessThan(time.now() - 50);
  });

  it('a request made before a dispose is not called after it', async () => {
    const time = new FakeTime();
    let calls = 0;
    const t = new FrameThrottle(time, time, 16, () => calls++);
    time.advance(20);
    t.request();
    t.dispose();
    await microtasks();
    expect(calls).toBe(0);
  });
});
