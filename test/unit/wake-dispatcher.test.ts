/**
 * The wake policy's deterministic contract (docs/wakes.md): a stub PTY whose onData callbacks the
 * test drives (the original suite never called them, which is how repaint
 * starvation shipped green), fake timers at millisecond scale.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Scheduler } from '../../src/core/clock.js';
import { DEFAULT_WAKE_TIMINGS, WakeDispatcher, type WakeEvent, type WakeTimings } from '../../src/core/chat/wake-dispatcher.js';

const T = DEFAULT_WAKE_TIMINGS;

/** A PTY stand-in: the test prints through it; it records what was typed and which listeners live. */
class StubPty {
  running = true;
  lastOutput = Number.NEGATIVE_INFINITY;
  writes: Array<{ at: number; data: string }> = [];
  listeners = new Set<() => void>();
  /** Every callback ever registered, including disposed ones (to fire stale ones on purpose). */
  allCallbacks: Array<() => void> = [];
  print(): void {
    this.lastOutput = Date.now();
    for (const fn of [...this.listeners]) fn();
  }
  term = {
    isRunning: () => this.running,
    lastOutputAt: () => this.lastOutput,
    onData: (fn: () => void) => {
      this.listeners.add(fn);
      this.allCallbacks.push(fn);
      return { dispose: () => void this.listeners.delete(fn) };
    },
    write: (data: string) => void this.writes.push({ at: Date.now(), data }),
  };
  /** Wake texts typed (not the Enters). */
  get wakes() {
    return this.writes.filter((w) => w.data !== '\r');
  }
}

let t0: number;
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  t0 = Date.now();
});
afterEach(() => vi.useRealTimers());

/** vitest's fake timers behind the Scheduler interface. */
const viScheduler: Scheduler = {
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms);
    return { dispose: () => clearTimeout(h) };
  },
  setInterval: (fn, ms) => {
    const h = setInterval(fn, ms);
    return { dispose: () => clearInterval(h) };
  },
};

function setup(opts: { cap?: boolean; timings?: Partial<WakeTimings>; paused?: () => boolean } = {}) {
  const pty = new StubPty();
  const events: WakeEvent[] = [];
  const d = new WakeDispatcher({
    clock: { now: () => Date.now() },
    scheduler: viScheduler,
    term: pty.term,
    timings: { ...T, ...opts.timings },
    capEligible: opts.cap ?? false,
    isPaused: opts.paused ?? (() => false),
    wakeText: (ids) => `WAKE ${ids.join(',')}`,
  });
  d.onEvent((e) => events.push(e));
  return { pty, d, events };
}

/** Repaints every `everyMs` for `forMs` (Claude's idle spinner: well under the idle threshold). */
function repaint(pty: StubPty, everyMs: number, forMs: number): void {
  for (let t = 0; t < forMs; t += everyMs) {
    pty.print();
    vi.advanceTimersByTime(everyMs);
  }
}

const since = (w: { at: number }) => w.at - t0;

describe('the ticket: repaint starvation and its safe cap', () => {
  it('a sub-threshold Claude repaint still gets exactly one wake, at the cap', () => {
    const { pty, d } = setup({ cap: true });
    pty.print();
    d.mention(7);
    repaint(pty, 200, 30_000);
    expect(pty.wakes.map((w) => [w.data, since(w)])).toEqual([['WAKE 7', T.coalesceMs + T.hardCapMs]]);
  });

  it('regression: without the cap the same repaint starves the wake forever (the original bug)', () => {
    const { pty, d } = setup({ cap: false });
    pty.print();
    d.mention(7);
    repaint(pty, 200, 120_000);
    expect(pty.wakes).toEqual([]);
  });

  it.each(['codex', 'gemini'])('%s: nothing is typed during a continuously streaming turn; the wake comes once it goes idle', () => {
    const { pty, d } = setup({ cap: false });
    pty.print();
    d.mention(1);
    repaint(pty, 50, 90_000); // streaming tokens
    expect(pty.wakes).toEqual([]);
    const end = pty.lastOutput;
    vi.advanceTimersByTime(T.idleThresholdMs);
    expect(pty.wakes.map((w) => w.at - end)).toEqual([T.idleThresholdMs]);
  });

  it('a cap armed from the recent-send path waits out the whole suppression window (re-armed for the rest)', () => {
    const { pty, d, events } = setup({ cap: true });
    d.noteSent(); // we typed into it at t0
    vi.advanceTimersByTime(1000);
    d.mention(3);
    repaint(pty, 200, 40_000);
    expect(pty.wakes.map(since)).toEqual([T.activeSuppressionMs]);
    expect(events).toContainEqual({ type: 'rearmed', reason: 'suppression', inMs: T.activeSuppressionMs - (1000 + T.coalesceMs + T.hardCapMs) });
  });

  it('repeated mentions during one long turn: one injection per cooldown window, the next deferred, not dropped', () => {
    const { pty, d } = setup({ cap: true });
    pty.print();
    d.mention(1);
    repaint(pty, 200, 11_000 + 5); // the first goes in at the cap (11 s)
    d.mention(2);
    repaint(pty, 200, 5000);
    d.mention(3); // merges with 2
    repaint(pty, 200, 60_000);
    const w = pty.wakes;
    expect(w.map((x) => x.data)).toEqual(['WAKE 1', 'WAKE 2,3']);
    expect(since(w[1]!) - since(w[0]!)).toBeGreaterThanOrEqual(T.capCooldownMs);
    expect(since(w[1]!) - since(w[0]!)).toBeLessThanOrEqual(T.capCooldownMs + 200);
  });

  it('after idle drain, cap drain and stop nothing is left alive, and a stale callback cannot touch the next cycle', () => {
    const { pty, d } = setup({ cap: true });
    const idle = () => ({ pending: [], cycle: null, idleTimer: false, capTimer: false, listener: false, coalesceTimer: false });
    // idle drain
    d.mention(1);
    vi.advanceTimersByTime(T.coalesceMs);
    expect(pty.wakes).toHaveLength(1); // idle from the start: direct
    pty.print();
    d.mention(2);
    vi.advanceTimersByTime(T.coalesceMs + T.idleThresholdMs);
    expect(pty.wakes).toHaveLength(2);
    expect(d.state).toMatchObject(idle());
    expect(pty.listeners.size).toBe(0);
    // cap drain, then a new cycle; the old cycle's listener fired late must not move the new idle timer
    vi.advanceTimersByTime(T.activeSuppressionMs + T.capCooldownMs);
    pty.print();
    d.mention(3);
    repaint(pty, 200, T.coalesceMs + T.hardCapMs + 100);
    expect(pty.wakes.map((w) => w.data)).toContain('WAKE 3');
    expect(d.state).toMatchObject(idle());
    const staleCallbacks = [...pty.allCallbacks];
    pty.print();
    d.mention(4);
    vi.advanceTimersByTime(T.coalesceMs + 1);
    const cycle = d.state.cycle;
    expect(cycle).not.toBeNull();
    for (const fn of staleCallbacks) fn(); // late output events of finished cycles
    vi.advanceTimersByTime(T.idleThresholdMs);
    expect(pty.wakes.at(-1)!.data).toBe('WAKE 4'); // delivered on its own cycle's idle gap, not pushed out
    // stop
    d.mention(5);
    vi.advanceTimersByTime(T.coalesceMs);
    d.dispose();
    expect(d.state).toMatchObject({ ...idle(), submitTimer: false });
    expect(pty.listeners.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a cap that fires after the session stopped running types nothing', () => {
    const { pty, d, events } = setup({ cap: true });
    pty.print();
    d.mention(1);
    repaint(pty, 200, 5000);
    pty.running = false;
    repaint(pty, 200, 10_000);
    expect(pty.writes).toEqual([]);
    expect(events).toContainEqual({ type: 'held', reason: 'not_running' });
    expect(d.state.listener).toBe(false);
  });
});

describe('the lifecycle guarantees (docs/wakes.md): one typing per wake, nothing after stop, no leaked listener, the owned Enter', () => {
  it('output that stops gives the idle drain at the idle threshold (no regression)', () => {
    const { pty, d } = setup({ cap: true });
    pty.print();
    d.mention(1);
    repaint(pty, 200, 3000);
    const quietFrom = pty.lastOutput;
    vi.advanceTimersByTime(20_000);
    expect(pty.wakes.map((w) => w.at - quietFrom)).toEqual([T.idleThresholdMs]);
  });

  it('exactly one injection when the idle and the cap timer are due at the same moment', () => {
    const { pty, d } = setup({ cap: true, timings: { hardCapMs: T.idleThresholdMs } });
    pty.print();
    d.mention(1);
    vi.advanceTimersByTime(60_000);
    expect(pty.wakes).toHaveLength(1);
    expect(pty.writes.filter((w) => w.data === '\r')).toHaveLength(1);
  });

  it('stop clears the cap: nothing is typed after it, not even the pending Enter', () => {
    const { pty, d } = setup({ cap: true });
    pty.print();
    d.mention(1);
    repaint(pty, 200, 5000); // a cycle with its cap armed
    expect(d.state).toMatchObject({ capTimer: true, listener: true });
    d.dispose();
    repaint(pty, 200, 60_000);
    expect(pty.writes).toEqual([]);
    const second = setup();
    second.d.mention(1);
    vi.advanceTimersByTime(T.coalesceMs); // typed; its Enter is due in 300 ms
    second.d.dispose();
    vi.advanceTimersByTime(10_000);
    expect(second.pty.writes.map((w) => w.data)).toEqual(['WAKE 1']);
  });

  it('the output listener is gone after every drain: none leaks', () => {
    const { pty, d } = setup({ cap: true });
    for (let i = 1; i <= 5; i++) {
      pty.print();
      d.mention(i);
      repaint(pty, 200, T.coalesceMs + T.hardCapMs + T.capCooldownMs + T.activeSuppressionMs);
      expect(pty.listeners.size).toBe(0);
    }
    expect(pty.wakes).toHaveLength(5);
  });

  it('Enter follows the text after max(submitMinDelayMs, text length) and only while the session runs', () => {
    const long = setup({ timings: { submitMinDelayMs: 300 } });
    long.d.mention(1);
    vi.advanceTimersByTime(T.coalesceMs);
    vi.advanceTimersByTime(299);
    expect(long.pty.writes.map((w) => w.data)).toEqual(['WAKE 1']);
    vi.advanceTimersByTime(1);
    expect(long.pty.writes.map((w) => w.data)).toEqual(['WAKE 1', '\r']);
    const dead = setup();
    dead.d.mention(1);
    vi.advanceTimersByTime(T.coalesceMs);
    dead.pty.running = false;
    vi.advanceTimersByTime(1000);
    expect(dead.pty.writes.map((w) => w.data)).toEqual(['WAKE 1']);
  });
});

describe('coalescing and the loop guard', () => {
  it('mentions inside the coalesce window become one wake', () => {
    const { pty, d } = setup();
    d.mention(1);
    vi.advanceTimersByTime(300);
    d.mention(2);
    d.mention(2);
    vi.advanceTimersByTime(T.coalesceMs);
    expect(pty.wakes.map((w) => w.data)).toEqual(['WAKE 1,2']);
  });

  it('holds wakes while the room is paused and delivers them on resume', () => {
    let paused = true;
    const { pty, d, events } = setup({ paused: () => paused });
    d.mention(1);
    vi.advanceTimersByTime(60_000);
    expect(pty.wakes).toEqual([]);
    expect(events).toContainEqual({ type: 'held', reason: 'paused' });
    paused = false;
    d.resume();
    expect(pty.wakes.map((w) => w.data)).toEqual(['WAKE 1']);
  });
});

describe('a trusted status (hooks, title, screen) beats the byte heuristics', () => {
  function withStatus(status: { v: 'busy' | 'idle' | 'waiting' | null }, cap = true) {
    const pty = new StubPty();
    const d = new WakeDispatcher({
      clock: { now: () => Date.now() },
      scheduler: viScheduler,
      term: { ...pty.term, trustedActivity: () => status.v },
      timings: T,
      capEligible: cap,
      isPaused: () => false,
      wakeText: (ids) => `WAKE ${ids.join(',')}`,
    });
    return { pty, d };
  }

  it('idle by the agent\'s own word: the wake goes in at once, even while its screen repaints', () => {
    const status = { v: 'busy' as 'busy' | 'idle' | 'waiting' | null };
    const { pty, d } = withStatus(status);
    pty.print();
    d.mention(1);
    repaint(pty, 200, 3000);
    expect(pty.wakes).toEqual([]);
    status.v = 'idle'; // e.g. Claude's Stop hook
    d.activityChanged();
    expect(pty.wakes.map((w) => w.data)).toEqual(['WAKE 1']);
    expect(since(pty.wakes[0]!)).toBeLessThan(T.coalesceMs + 3200); // no 5 s quiet period waited out
  });

  it('busy by the agent\'s own word: quiet bytes do not deliver (it is thinking), the idle word does', () => {
    const status = { v: 'busy' as 'busy' | 'idle' | 'waiting' | null };
    const { pty, d } = withStatus(status, false);
    d.mention(1);
    vi.advanceTimersByTime(60_000); // not a byte printed
    expect(pty.wakes).toEqual([]);
    expect(vi.getTimerCount()).toBeLessThanOrEqual(2); // re-armed calmly, not spinning
    status.v = 'idle';
    d.activityChanged();
    expect(pty.wakes).toHaveLength(1);
  });

  it('waiting for the user (a dialog): nothing is typed, not even by the cap', () => {
    const status = { v: 'waiting' as 'busy' | 'idle' | 'waiting' | null };
    const { pty, d } = withStatus(status, true);
    pty.print();
    d.mention(1);
    repaint(pty, 200, 120_000);
    expect(pty.writes).toEqual([]);
    status.v = 'idle';
    d.activityChanged();
    expect(pty.wakes).toHaveLength(1);
  });
});
