/**
 * The attach client's reconnects on the fake clock (src/client/attach/attach-client.ts over its
 * RunnerLink), against fake connections: a drop is tried again along ATTACH_RECONNECT to the
 * millisecond and ends `lost` past its last wait, with the terminal given back; a reconnect to a
 * new runner generation takes a fresh frame; a session found exited meanwhile ends the attach
 * at once as `exited`. Every move goes through the attach's states.
 */
import { describe, expect, it } from 'vitest';
import { AttachClient } from '../../src/client/attach/attach-client.js';
import { SessionExitedError } from '../../src/client/attach/attach-types.js';
import type { RunnerConnection } from '../../src/client/link/connection.js';
import { ATTACH_RECONNECT } from '../../src/client/link/retry-schedule.js';
import type { AttachState } from '../../src/core/attach-states.js';
import type { Scheduler } from '../../src/core/clock.js';
import { Emitter, NONE, type Event } from '../../src/core/lifetime.js';
import type { ClientMessage } from '../../src/core/protocol/client-messages.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { FakeTime } from '../helpers/fake-time.js';
import { FakeTerminal } from '../helpers/screen.js';

/** A runner connection that answers a reconcile and a subscribe (a snapshot of `screen`), and can be cut. */
class FakeConn {
  readonly sent: ClientMessage[] = [];
  private readonly messages = new Emitter<RunnerMessage>();
  private readonly closes = new Emitter<Error | null>();
  private ended: { err: Error | null } | null = null;
  readonly hello;
  readonly socket = { pause() {}, resume() {} };
  readonly delivering = false;

  constructor(readonly scheduler: Scheduler, private readonly generation: string, private readonly screen: string) {
    this.hello = { type: 'hello', protocol: 1, generation, host: { agent: 'shell', id: 's1' } };
  }

  get closed(): boolean {
    return this.ended !== null;
  }
  readonly onMessage: Event<RunnerMessage> = (fn) => this.messages.event(fn);
  readonly onClose: Event<Error | null> = (fn) => {
    if (this.ended) {
      fn(this.ended.err);
      return NONE;
    }
    return this.closes.event(fn);
  };
  send(m: ClientMessage): void {
    if (this.closed) return;
    this.sent.push(m);
    const { generation } = this;
    if (m.type === 'reconcile') {
      const commandId = (m as { commandId?: string }).commandId;
      queueMicrotask(() => this.emit({ type: 'reconcile_result', commandId, generation, hostRevision: 1, terminalCursor: { lastSeq: 9 }, unresolved: [], commands: [] } as never));
    }
    if (m.type === 'subscribe_terminal') {
      queueMicrotask(() => {
        this.emit({ type: 'snapshot_begin', seq: 10, cols: 80, rows: 24, generation, historyLines: 0 });
        this.emit({ type: 'snapshot_screen', data: this.screen });
        this.emit({ type: 'snapshot_end', nextSeq: 10 });
      });
    }
  }
  emit(m: RunnerMessage): void {
    if (!this.closed) this.messages.fire(m);
  }
  /** Cut, as a crash or the network would. */
  cut(): void {
    if (this.ended) return;
    this.ended = { err: new Error('cut') };
    this.closes.fire(this.ended.err);
  }
  close(): void {
    this.cut();
  }
  dispose(): void {
    this.cut();
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

function setup(tries: Array<(time: FakeTime) => Promise<FakeConn>>) {
  const time = new FakeTime(0);
  const t = new FakeTerminal(80, 24);
  const calls: number[] = [];
  const key = parseDetachKey('ctrl-\\');
  if (!key.ok) throw new Error(key.message);
  const client = new AttachClient({
    scheduler: time,
    connect: () => {
      calls.push(time.now());
      const next = tries.shift() ?? (() => Promise.reject(new Error('ECONNREFUSED')));
      return next(time) as unknown as Promise<RunnerConnection>;
    },
    input: t.keys,
    output: t.screen,
    detachKey: key.key,
    hint: false,
  });
  const states: AttachState[] = [client.state];
  client.onStateChange((c) => states.push(c.to));
  return { time, t, calls, client, states };
}

describe('the attach client reconnecting (fake clock)', () => {
  it('tries again along ATTACH_RECONNECT to the millisecond, then ends lost with the terminal given back', async () => {
    let first!: FakeConn;
    const { time, t, calls, client, states } = setup([async (time) => (first = new FakeConn(time, 'g1', 'hello-screen'))]);
    const done = client.run();
    await flush();
    expect(client.state).toBe('live');
    expect(t.screen.drawn).toContain('hello-screen');

    first.cut();
    expect(client.state).toBe('reconnecting');
    let at = 0;
    for (const wait of ATTACH_RECONNECT.delaysMs) {
      time.advance(wait - 1);
      expect(calls).toHaveLength(ATTACH_RECONNECT.delaysMs.indexOf(wait) + 1); // not a moment early
      time.advance(1);
      at += wait;
      expect(calls.at(-1)).toBe(at);
      await flush();
    }
    expect(await done).toEqual({ reason: 'lost', message: 'lost the connection to the session and could not reconnect' });
    expect(calls).toEqual([0, 100, 350, 850, 1850, 3850]);
    expect(t.screen.drawn.endsWith('\x1b[?25h')).toBe(true); // the restore last
    expect(t.keys.isRaw).toBe(false);
    expect(states).toEqual(['connecting', 'subscribing', 'live', 'reconnecting', 'ended']);
    expect(time.pending).toBe(0); // no retry, no jiggle, no reconcile wait left
  });

  it('a reconnect to a new runner generation takes a fresh frame; one that finds the session exited ends it at once', async () => {
    let a!: FakeConn;
    let b!: FakeConn;
    const { time, t, calls, client, states } = setup([
      async (time) => (a = new FakeConn(time, 'g1', 'old-runner')),
      () => Promise.reject(new Error('ECONNREFUSED')),
      async (time) => (b = new FakeConn(time, 'g2', 'new-runner')),
      () => Promise.reject(new SessionExitedError(3, null)),
    ]);
    const done = client.run();
    await flush();
    a.cut();
    time.advance(100); // refused
    await flush();
    time.advance(250); // the new runner
    await flush();
    expect(client.state).toBe('live');
    expect(t.screen.drawn).toContain('new-runner');
    // Its reconcile said another generation: no resume from the old runner's seqs.
    expect(b.sent.map((m) => m.type)).toEqual(['reconcile', 'subscribe_terminal', 'redraw']); // the redraw: live again, the jiggle chain
    expect(b.sent[1]).toEqual({ type: 'subscribe_terminal', cols: 80, rows: 24 });

    b.cut();
    time.advance(100);
    await flush();
    expect(await done).toEqual({ reason: 'exited', code: 3, signal: null });
    time.advance(10_000);
    expect(calls).toEqual([0, 100, 350, 450]); // no try after the exit was known
    expect(states).toEqual(['connecting', 'subscribing', 'live', 'reconnecting', 'subscribing', 'live', 'reconnecting', 'ended']);
  });
});
