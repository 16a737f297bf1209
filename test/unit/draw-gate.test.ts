/**
 * The board's draw gate (src/ui/draw-gate.ts): a commit after a quiet spell is drawn at once, one
 * inside the hold when the hold ends (not a whole hold after the commit, as Ink's throttle did:
 * it starts its hold again on every commit), the hold as long as the last draw took (within its
 * bounds), and every commit that came meanwhile shares one draw.
 */
import { describe, expect, it } from 'vitest';
import { DRAW_HOLD_MAX_MS, DRAW_HOLD_MIN_MS, DrawGate } from '../../src/ui/draw-gate.js';
import { FakeTime } from '../helpers/fake-time.js';

function gate(drawMs = 0) {
  const fake = new FakeTime();
  const draws: number[] = [];
  // A draw takes `drawMs` of the clock, as a real draw takes CPU time: the gate's clock runs that
  // far ahead of the timers' after each draw (no timer is due inside a draw).
  const cost = { ms: drawMs };
  let drift = 0;
  const clock = { now: () => fake.now() + drift };
  const g = new DrawGate({ clock, scheduler: fake }, () => {
    draws.push(clock.now());
    drift += cost.ms;
  });
  const time = { now: clock.now, advance: (ms: number) => fake.advance(ms) };
  return { time, draws, g, cost };
}

describe('the draw gate', () => {
  it('draws a commit after a quiet spell at once, in the commit', () => {
    const { time, draws, g } = gate();
    g.request();
    expect(draws).toEqual([time.now()]);
    time.advance(100);
    g.request();
    expect(draws).toHaveLength(2);
    expect(g.waiting).toBe(false);
  });

  it('holds a commit that comes right after a draw until the hold ends, and no longer', () => {
    const { time, draws, g } = gate(3);
    g.request(); // a draw of 3 ms: the next waits until 3 ms after it ended
    const ended = time.now();
    time.advance(2);
    g.request(); // 2 ms after: waits 1 more
    expect(draws).toHaveLength(1);
    expect(g.waiting).toBe(true);
    time.advance(1);
    expect(draws).toEqual([ended - 3, ended + 3]);
  });

  it('draws every commit inside the hold in one draw', () => {
    const { time, draws, g } = gate(2);
    g.request();
    for (let i = 0; i < 10; i++) g.request();
    expect(draws).toHaveLength(1);
    time.advance(2);
    expect(draws).toHaveLength(2);
    time.advance(50);
    expect(draws).toHaveLength(2);
  });

  it('holds at least DRAW_HOLD_MIN_MS and at most DRAW_HOLD_MAX_MS', () => {
    const quick = gate(0);
    quick.g.request();
    quick.g.request();
    quick.time.advance(DRAW_HOLD_MIN_MS - 0.5);
    expect(quick.draws).toHaveLength(1);
    quick.time.advance(0.5);
    expect(quick.draws).toHaveLength(2);

    const slow = gate(50);
    slow.g.request();
    slow.g.request();
    slow.time.advance(DRAW_HOLD_MAX_MS - 1);
    expect(slow.draws).toHaveLength(1);
    slow.time.advance(1);
    expect(slow.draws).toHaveLength(2);
  });

  it('under a storm of commits, draws take at most about half the time', () => {
    const { time, draws, g, cost } = gate(4);
    const start = time.now();
    for (let i = 0; i < 1000; i++) {
      g.request();
      time.advance(0.5);
    }
    const busy = draws.length * cost.ms;
    expect(busy / (time.now() - start)).toBeLessThanOrEqual(0.51);
    expect(draws.length).toBeGreaterThan(0);
  });

  it('draws nothing once disposed, not even what it held', () => {
    const { time, draws, g } = gate(5);
    g.request();
    g.request();
    g.dispose();
    time.advance(100);
    g.request();
    expect(draws).toHaveLength(1);
  });
});
