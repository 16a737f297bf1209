/**
 * The one reconnect loop (src/client/link/runner-link.ts) on the fake clock, over fake
 * connections: the retry schedule to the millisecond, giving up and being asked again, the
 * stale guard (a try that lost the race, a closed socket's late data), what came with a
 * connection delivered after its owner set up, and dispose ending everything.
 */
import { describe, expect, it } from 'vitest';
import { Emitter, toDisposable, type Event } from '../../src/core/lifetime.js';
import type { LinkConnection, LinkState } from '../../src/client/link/link-types.js';
import { RunnerLink } from '../../src/client/link/runner-link.js';
import { ATTACH_RECONNECT, HOST_RECONNECT, PREVIEW_RETRY, STATUS_RETRY, retryDelay, type RetrySchedule } from '../../src/client/link/retry-schedule.js';
import { FakeTime } from '../helpers/fake-time.js';

/** A connection the test drives. `leaky`: its events still reach listeners that were removed, as bytes already read would. */
class FakeConn implements LinkConnection<string, string> {
  private readonly messages = new Emitter<string>();
  private readonly errors = new Emitter<string>();
  private readonly closes = new Emitter<Error | null>();
  private readonly kept: Array<(m: string) => void> = [];
  disposed = false;
  closed = false;

  constructor(readonly name: string, private readonly leaky = false) {}

  readonly onMessage: Event<string> = (fn) => {
    if (this.leaky) this.kept.push(fn);
    return this.messages.event(fn);
  };
  readonly onError: Event<string> = (fn) => this.errors.event(fn);
  readonly onClose: Event<Error | null> = (fn) => this.closes.event(fn);

  say(m: string): void {
    if (this.leaky) for (const fn of this.kept) fn(m);
    else this.messages.fire(m);
  }
  bad(e: string): void {
    this.errors.fire(e);
  }
  close(err: Error | null = null): void {
    if (this.closed) return;
    this.closed = true;
    this.closes.fire(err);
  }
  dispose(): void {
    this.disposed = true;
    this.close();
  }
}

interface Try {
  at: number;
  resolve(c: FakeConn): void;
  reject(e: Error): void;
}

const flush = () => new Promise<void>((r) => setImmediate(r));

function setup(schedule: RetrySchedule, retryWhen?: (f: { failures: number; error: unknown }) => boolean) {
  const time = new FakeTime(0);
  const tries: Try[] = [];
  const link = new RunnerLink<FakeConn>({
    connect: () =>
      new Promise<FakeConn>((resolve, reject) => {
        tries.push({ at: time.now(), resolve, reject });
      }),
    schedule,
    scheduler: time,
    retryWhen,
  });
  const states: LinkState[] = [];
  const got: string[] = [];
  const bad: string[] = [];
  link.onStateChange((s) => states.push(s));
  link.onMessage((m) => got.push(m));
  link.onError((e) => bad.push(e));
  /** Fails the newest try and lets its failure be seen. */
  const refuse = async () => {
    tries.at(-1)!.reject(new Error('ECONNREFUSED'));
    await flush();
  };
  const answer = async (c: FakeConn, t = tries.at(-1)!) => {
    t.resolve(c);
    await flush();
    return c;
  };
  return { time, tries, link, states, got, bad, refuse, answer };
}

describe('retry schedules', () => {
  it('wait each delay in turn; give up past the last, or repeat it as a cap', () => {
    const s: RetrySchedule = { delaysMs: [100, 300], afterLast: 'give-up' };
    expect([1, 2, 3].map((n) => retryDelay(s, n))).toEqual([100, 300, undefined]);
    expect([1, 4, 5, 99].map((n) => retryDelay(HOST_RECONNECT, n))).toEqual([1000, 10_000, 10_000, 10_000]);
    expect(retryDelay({ delaysMs: [], afterLast: 'repeat' }, 1)).toBeUndefined();
    // Every link's schedule starts fast and never waits longer than its cap.
    for (const x of [STATUS_RETRY, PREVIEW_RETRY, ATTACH_RECONNECT, HOST_RECONNECT]) {
      expect(x.delaysMs[0]).toBeLessThanOrEqual(1000);
      expect([...x.delaysMs].sort((a, b) => a - b)).toEqual(x.delaysMs);
    }
  });
});

describe('RunnerLink (fake clock)', () => {
  it('tries at once, then after each delay of its schedule to the millisecond, then gives up until rearmed', async () => {
    const { time, tries, link, states, refuse } = setup({ delaysMs: [100, 250], afterLast: 'give-up' });
    link.start();
    expect(tries.map((t) => t.at)).toEqual([0]);
    await refuse();
    expect(link.state).toMatchObject({ kind: 'waiting', delayMs: 100, last: { cause: 'unanswered', failures: 1 } });
    time.advance(99);
    expect(tries).toHaveLength(1);
    time.advance(1);
    expect(tries.map((t) => t.at)).toEqual([0, 100]);
    await refuse();
    time.advance(250);
    expect(tries.map((t) => t.at)).toEqual([0, 100, 350]);
    await refuse();
    expect(link.state).toMatchObject({ kind: 'given-up', last: { failures: 3 } });
    expect(time.pending).toBe(0); // gave up: no timer held
    link.start();
    expect(tries).toHaveLength(3); // a link that gave up waits for news
    link.rearm();
    link.start();
    expect(tries).toHaveLength(4);
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'waiting', 'connecting', 'waiting', 'connecting', 'given-up', 'idle', 'connecting']);
    link.dispose();
  });

  it('with a capped schedule tries for ever at the cap', async () => {
    const { time, tries, link, refuse } = setup({ delaysMs: [1000, 2000], afterLast: 'repeat' });
    link.start();
    for (let i = 0; i < 5; i++) {
      await refuse();
      time.advance(i === 0 ? 1000 : 2000);
    }
    expect(tries.map((t) => t.at)).toEqual([0, 1000, 3000, 5000, 7000, 9000]);
    link.dispose();
    expect(time.pending).toBe(0);
  });

  it('a connection that closes is tried again after the first delay, its failures counted afresh', async () => {
    const { time, tries, link, got, bad, refuse, answer } = setup({ delaysMs: [100, 200, 400], afterLast: 'give-up' });
    link.start();
    await refuse();
    time.advance(100);
    const a = await answer(new FakeConn('a'));
    expect(link.state.kind).toBe('open');
    expect(link.current).toBe(a);
    a.say('one');
    a.bad('garbled');
    expect(got).toEqual(['one']);
    expect(bad).toEqual(['garbled']);
    a.close(new Error('reset'));
    expect(link.current).toBeNull();
    expect(link.state).toMatchObject({ kind: 'waiting', delayMs: 100, last: { cause: 'closed', failures: 1 } });
    expect((link.state as { last: { error: Error } }).last.error.message).toBe('reset');
    time.advance(100);
    expect(tries).toHaveLength(3);
    await refuse();
    expect(link.state).toMatchObject({ kind: 'waiting', last: { failures: 2 } });
    link.dispose();
  });

  it('never lets a try that lost the race deliver: it is closed when it comes, and the current line is untouched', async () => {
    const { tries, link, got, states, answer } = setup({ delaysMs: [100], afterLast: 'give-up' });
    link.start();
    const slow = tries[0]!;
    link.stop(); // the preview turned final, say, while the try was on its way
    link.start();
    const b = await answer(new FakeConn('b'), tries[1]);
    const a = await answer(new FakeConn('a'), slow); // the first try comes back last
    expect(a.disposed).toBe(true);
    expect(link.current).toBe(b);
    a.say('from-a');
    b.say('from-b');
    expect(got).toEqual(['from-b']);
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'idle', 'connecting', 'open']);
    link.dispose();
  });

  it("drops a closed socket's late data, before and after the next connection is up", async () => {
    const { time, link, got, answer } = setup({ delaysMs: [100], afterLast: 'give-up' });
    link.start();
    const old = await answer(new FakeConn('old', true));
    old.say('before');
    old.close(); // a runner replaced by a newer generation, say
    old.say('late'); // bytes of the old runner read after its close
    time.advance(100);
    const fresh = await answer(new FakeConn('new'));
    old.say('later');
    fresh.say('current');
    expect(got).toEqual(['before', 'current']);
    link.dispose();
  });

  it("delivers what came with a connection after its owner's onOpen listeners set up", async () => {
    const { link, got } = setup({ delaysMs: [], afterLast: 'give-up' });
    const c = new FakeConn('first');
    // The messages handed to the first listener of a RunnerConnection (a pipelined subscribe's answers).
    const pending = ['snapshot_begin', 'snapshot_end'];
    const base = c.onMessage;
    (c as { onMessage: Event<string> }).onMessage = (fn) => {
      const d = base(fn);
      for (const m of pending.splice(0)) fn(m);
      return d;
    };
    const order: string[] = [];
    link.onOpen(({ conn, held }) => {
      order.push(`open ${conn.name}, ${got.length} messages before`);
      held.add(toDisposable(() => order.push('released')));
    });
    link.adopt(c);
    expect(order).toEqual(['open first, 0 messages before']);
    expect(got).toEqual(['snapshot_begin', 'snapshot_end']);
    c.close();
    expect(order).toEqual(['open first, 0 messages before', 'released']); // what the owner added went with it
    expect(link.state.kind).toBe('given-up'); // an empty schedule: the first failure ends it
    expect(() => link.adopt(new FakeConn('x'))).toThrow(/given-up cannot adopt/);
    link.dispose();
  });

  it('asks its owner at each failure, and gives up at once when told so', async () => {
    const asked: number[] = [];
    let want = true;
    const { time, tries, link, refuse } = setup({ delaysMs: [100, 100, 100], afterLast: 'give-up' }, (f) => {
      asked.push(f.failures);
      return want;
    });
    link.start();
    await refuse();
    time.advance(100);
    want = false; // the session exited meanwhile
    await refuse();
    expect(asked).toEqual([1, 2]);
    expect(link.state).toMatchObject({ kind: 'given-up', last: { failures: 2 } });
    expect(tries).toHaveLength(2);
    expect(time.pending).toBe(0);
    link.dispose();
  });

  it('an owner may stop the link from inside its question: nothing is armed after', async () => {
    const time = new FakeTime(0);
    let tries = 0;
    const link: RunnerLink<FakeConn> = new RunnerLink<FakeConn>({
      connect: () => (tries++, Promise.reject(new Error('refused'))),
      schedule: { delaysMs: [100], afterLast: 'repeat' },
      scheduler: time,
      retryWhen: () => (link.stop(), true),
    });
    link.start();
    await flush();
    expect(link.state.kind).toBe('idle');
    time.advance(1000);
    expect(tries).toBe(1);
  });

  it('dispose ends everything: the open connection, the armed retry, a try on its way (failed at once, closed if it comes), and every event', async () => {
    const { link, states, answer } = setup({ delaysMs: [100], afterLast: 'repeat' });
    link.start();
    const a = await answer(new FakeConn('a'));
    link.dispose();
    expect(a.disposed).toBe(true);
    expect(states.at(-1)).toEqual({ kind: 'disposed' });

    const second = setup({ delaysMs: [100], afterLast: 'repeat' });
    second.link.start();
    await second.refuse();
    expect(second.time.pending).toBe(1);
    second.link.dispose();
    expect(second.time.pending).toBe(0);

    // A try on its way: what it holds is released at once (a socket destroyed, ssh killed), failing it.
    const time = new FakeTime(0);
    let abandoned = false;
    const fourth = new RunnerLink<FakeConn>({
      connect: (held) =>
        new Promise<FakeConn>((_resolve, reject) => {
          held.add(toDisposable(() => ((abandoned = true), reject(new Error('the socket was destroyed')))));
        }),
      schedule: { delaysMs: [100], afterLast: 'repeat' },
      scheduler: time,
    });
    fourth.start();
    fourth.dispose();
    expect(abandoned).toBe(true);
    await flush();
    expect(fourth.state).toEqual({ kind: 'disposed' }); // its failure is stale: nothing armed, nothing said
    expect(time.pending).toBe(0);

    const third = setup({ delaysMs: [100], afterLast: 'repeat' });
    third.link.start();
    const late = third.tries[0]!;
    third.link.dispose();
    const conn = new FakeConn('late');
    late.resolve(conn);
    await flush();
    expect(conn.disposed).toBe(true); // a socket that came after the end is closed, not leaked
    conn.say('x');
    expect(third.got).toEqual([]);
    expect(third.states.map((s) => s.kind)).toEqual(['connecting', 'disposed']);
    third.link.start();
    expect(third.tries).toHaveLength(1);
  });
});
