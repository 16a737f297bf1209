/**
 * The board's keys connection (src/client/board-actions/session-input.ts): keys written while
 * it connects go first and in order; it ends once, with a line, when it
 * cannot connect, the program exits or the runner closes; closed early, the
 * connection that comes later is let go at once.
 */
import { describe, expect, it } from 'vitest';
import type { RunnerConnection } from '../../src/client/link/connection.js';
import { ConnectedInput } from '../../src/client/board-actions/session-input.js';
import { FakeRunner } from './fake-runner.js';

/** A connect whose connection arrives when the test says so. */
function deferred() {
  let resolve!: (c: RunnerConnection) => void;
  let reject!: (e: Error) => void;
  const p = new Promise<RunnerConnection>((res, rej) => ((resolve = res), (reject = rej)));
  return { connect: () => p, resolve, reject };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ConnectedInput', () => {
  it('queues keys until connected, then sends them first, in order, as input messages', async () => {
    const d = deferred();
    const input = new ConnectedInput(d.connect, 'alpha');
    input.write('a');
    input.write('\x1b[A');
    const r = new FakeRunner('');
    d.resolve(r.asConnection());
    await tick();
    input.write('\r');
    expect(r.sent).toEqual([{ type: 'input', data: 'a' }, { type: 'input', data: '\x1b[A' }, { type: 'input', data: '\r' }]);
    input.close();
    expect(r.closed).toBe(true);
    input.write('late');
    expect(r.typed()).toBe('a\x1b[A\r');
  });

  it('ends once with the reason: the exit, and nothing is sent after it', async () => {
    const r = new FakeRunner('');
    const input = new ConnectedInput(async () => r.asConnection(), 'alpha');
    const ends: string[] = [];
    input.onEnd((m) => ends.push(m));
    await tick();
    r.emit({ type: 'exit', code: null, signal: 'SIGTERM' });
    r.emit({ type: 'exit', code: 1, signal: null });
    expect(ends).toEqual(['alpha exited (killed by SIGTERM)']);
    expect(input.ended).toBe(true);
    input.write('x');
    expect(r.typed()).toBe('');
    const late: string[] = [];
    input.onEnd((m) => late.push(m)); // asked after the end: told at once
    expect(late).toEqual(['alpha exited (killed by SIGTERM)']);
  });

  it('a connect that fails ends it with the first line of the error; closed before connecting, the connection is let go', async () => {
    const failing = deferred();
    const a = new ConnectedInput(failing.connect, 'alpha');
    const ends: string[] = [];
    a.onEnd((m) => ends.push(m));
    failing.reject(new Error('cannot reach session alpha: ECONNREFUSED\nmore'));
    await tick();
    expect(ends).toEqual(['cannot reach session alpha: ECONNREFUSED']);

    const slow = deferred();
    const b = new ConnectedInput(slow.connect, 'beta');
    b.write('k');
    b.close();
    const r = new FakeRunner('');
    slow.resolve(r.asConnection());
    await tick();
    expect(r.closed).toBe(true);
    expect(r.sent).toEqual([]);
  });
});
