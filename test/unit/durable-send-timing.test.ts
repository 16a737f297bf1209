/**
 * sendDurable's timing on FakeTime: the waits between reconnects (retryDelaysMs) up to the
 * deadline, and the ack wait timing out into one reconcile that says exactly what happened.
 */
import { describe, expect, it } from 'vitest';
import type { RunnerConnection } from '../../src/client/link/connection.js';
import { sendDurable, type SendOutcome } from '../../src/client/send/durable-send.js';
import { Emitter, type Event } from '../../src/core/lifetime.js';
import type { ClientMessage } from '../../src/core/protocol/client-messages.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { EXIT } from '../../src/state/errors.js';
import { FakeTime } from '../helpers/fake-time.js';

/** Lets the send's promise chain run between FakeTime steps. */
const flush = () => new Promise((r) => setImmediate(r));

/** Advances `time` in `step`s until `p` settles (or `limit` ms passed); returns its value. */
async function drive<T>(time: FakeTime, p: Promise<T>, step: number, limit = 60_000): Promise<T> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  for (let t = 0; !done && t <= limit; t += step) {
    await flush();
    if (!done) time.advance(step);
  }
  return p;
}

/** A runner that takes the prompt and never acks it; a reconcile finds it never arrived. */
class SilentRunner {
  readonly sent: ClientMessage[] = [];
  private readonly messages = new Emitter<RunnerMessage>();
  private readonly closes = new Emitter<Error | null>();
  readonly hello = { type: 'hello', protocol: 1, generation: 'gen-1', host: { id: 'abc' } };
  closed = false;
  constructor(readonly scheduler: FakeTime) {}
  readonly onMessage: Event<RunnerMessage> = this.messages.event;
  readonly onClose: Event<Error | null> = this.closes.event;
  send(m: ClientMessage): void {
    this.sent.push(m);
    const commandId = (m as { commandId?: string }).commandId;
    if (m.type === 'reconcile') {
      const ids = (m as { commandIds?: string[] }).commandIds ?? [];
      queueMicrotask(() =>
        this.messages.fire({ type: 'reconcile_result', commandId, generation: 'gen-1', hostRevision: 1, terminalCursor: { lastSeq: -1 }, unresolved: [], commands: ids.map((id) => ({ commandId: id, status: 'unknown' })) } as never),
      );
    }
  }
  dispose(): void {
    this.closed = true;
  }
}

describe('sendDurable timing (FakeTime)', () => {
  it('retries the connect after each retry delay until the deadline, then says nothing was typed', async () => {
    const time = new FakeTime(0);
    const tries: number[] = [];
    const p = sendDurable({
      time: { clock: time, scheduler: time },
      connect: () => {
        tries.push(time.now());
        return Promise.reject(new Error('connect ECONNREFUSED'));
      },
      text: 'hi',
      submit: true,
      wait: 'applied',
      timeoutMs: 1000,
      retryDelaysMs: [100, 300],
    });
    const outcome: SendOutcome = await drive(time, p, 50);
    expect(tries).toEqual([0, 100, 400, 700, 1000]); // the last wait is cut to the deadline, and that try is the last
    expect(outcome).toMatchObject({ status: 'not_typed', exitCode: EXIT.sessionUnavailable });
    expect((outcome as { message: string }).message).toBe('connect ECONNREFUSED; nothing was typed');
  });

  it('an ack that never comes times out at the deadline; the reconcile says the runner never got it', async () => {
    const time = new FakeTime(0);
    const runner = new SilentRunner(time);
    const p = sendDurable({
      time: { clock: time, scheduler: time },
      connect: async () => runner as unknown as RunnerConnection,
      text: 'hi',
      submit: true,
      wait: 'applied',
      timeoutMs: 5000,
    });
    await flush();
    expect(runner.sent.map((m) => m.type)).toEqual(['input']);
    time.advance(4999);
    await flush();
    expect(runner.sent.map((m) => m.type)).toEqual(['input']); // still waiting
    const outcome = await drive(time, p, 1);
    expect(runner.sent.map((m) => m.type)).toEqual(['input', 'reconcile']);
    expect(time.now()).toBeLessThan(5010);
    expect(outcome).toMatchObject({ status: 'not_typed', exitCode: EXIT.sessionUnavailable, message: 'the runner never received the prompt within 5000 ms; nothing was typed' });
    expect(runner.closed).toBe(true);
  });
});
