import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/runner/control/message-table.js';
import { messageRig as rig } from '../helpers/message-rig.js';

describe('the message table', () => {
  it('has one row per client message type, each with its gate and envelope rule', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual(
      ['detach', 'explain', 'hello', 'hook', 'input', 'interrupt', 'reconcile', 'redraw', 'rename', 'resize', 'resume_after_limit', 'status', 'subscribe_status', 'subscribe_terminal', 'terminate'],
    );
    expect(MESSAGES.hello.gate.greeted).toBe(false);
    // It makes the runner type later: a read-only client (a web device paired read-only) cannot turn it on.
    expect(MESSAGES.resume_after_limit.gate).toEqual({ greeted: true, interactive: true, alive: false });
    for (const t of ['input', 'resize', 'interrupt', 'redraw', 'terminate'] as const) expect(MESSAGES[t].gate).toEqual({ greeted: true, interactive: true, alive: true });
    for (const t of ['input', 'resize', 'interrupt', 'redraw', 'terminate', 'detach', 'reconcile'] as const) expect(MESSAGES[t].envelope).toBe('either');
    for (const t of ['hello', 'status', 'explain', 'subscribe_status', 'subscribe_terminal', 'hook', 'rename'] as const) expect(MESSAGES[t].envelope).toBe('legacy');
  });

  it('a message before hello is refused with not_hello, in either encoding, and nothing runs', () => {
    const r = rig();
    const { socket, send } = r.client();
    send({ type: 'input', data: 'x' });
    const id = send({ type: 'input', data: 'y' }, true);
    send({ type: 'subscribe_terminal' });
    expect(socket.sent).toEqual([
      { type: 'error', code: 'not_hello', message: 'send hello first' },
      { type: 'error', code: 'not_hello', message: 'send hello first', commandId: id },
      { type: 'error', code: 'not_hello', message: 'send hello first' },
    ]);
    expect(r.calls).toEqual([]);
  });

  it('a write from a read-only client is refused with read_only: an error for legacy and keystrokes, a rejected ack for acked commands', () => {
    const r = rig();
    const { socket, send } = r.client({ readOnly: true });
    send({ type: 'input', data: 'x' });
    const key = send({ type: 'input', data: 'y' }, true);
    const prompt = send({ type: 'input', data: 'z', durable: true }, true);
    const resize = send({ type: 'resize', cols: 100, rows: 30 }, true);
    send({ type: 'terminate' });
    expect(socket.sent).toEqual([
      { type: 'error', code: 'read_only', message: 'input refused: this client attached read-only' },
      { type: 'error', code: 'read_only', message: 'input refused: this client attached read-only', commandId: key },
      { type: 'cmd_ack', commandId: prompt, stage: 'rejected', code: 'read_only', message: 'input refused: this client attached read-only' },
      { type: 'cmd_ack', commandId: resize, stage: 'rejected', code: 'read_only', message: 'resize refused: this client attached read-only' },
      { type: 'error', code: 'read_only', message: 'terminate refused: this client attached read-only' },
    ]);
    expect(r.calls).toEqual([]);
    // What only reads is served.
    send({ type: 'subscribe_status' });
    expect(r.calls).toEqual(['subscribe_status']);
  });

  it('input after the program exited is refused with session_exited; an enveloped terminate is observed instead', () => {
    const r = rig();
    const { socket, send } = r.client({});
    r.exitNow();
    send({ type: 'input', data: 'x' });
    const key = send({ type: 'input', data: 'y' }, true);
    const prompt = send({ type: 'input', data: 'z', durable: true }, true);
    const term = send({ type: 'terminate' }, true);
    expect(socket.sent).toEqual([
      { type: 'error', code: 'session_exited', message: 'input refused: the session has exited' },
      { type: 'error', code: 'session_exited', message: 'input refused: the session has exited', commandId: key },
      { type: 'cmd_ack', commandId: prompt, stage: 'rejected', code: 'session_exited', message: 'input refused: the session has exited' },
      { type: 'cmd_ack', commandId: term, stage: 'observed', exitCode: 0, exitSignal: null },
    ]);
    expect(r.calls).toEqual([]);
  });

  it('the legacy and the enveloped form run the same handler; the envelope adds the acks', () => {
    const r = rig();
    const { socket, send } = r.client({});
    send({ type: 'interrupt' });
    const id = send({ type: 'interrupt' }, true);
    expect(r.calls).toEqual(['interrupt', 'interrupt']);
    expect(socket.sent).toEqual([{ type: 'cmd_ack', commandId: id, stage: 'applied' }]);
    const p = send({ type: 'input', data: 'hi', durable: true }, true);
    send({ type: 'input', data: 'hi', durable: true }); // legacy: a keystroke, whatever it says
    expect(r.calls.slice(2)).toEqual(['prompt hi', 'type hi']);
    expect(socket.sent.at(-1)).toEqual({ type: 'cmd_ack', commandId: p, stage: 'applied' });
  });

  it("keys typed as bytes pass the input row's gate, stamp the client active and reach the session; refused, they are not typed and the caller is told", () => {
    const { calls, client, time, exitNow } = rig();
    const none = client();
    expect(none.keys('a')).toBe(false); // before hello
    const ro = client({ readOnly: true });
    expect(ro.keys('b')).toBe(false);
    const rw = client({ readOnly: false });
    time.advance(42);
    expect(rw.keys('cd')).toBe(true);
    expect(rw.c.lastActive).toBe(time.now());
    exitNow();
    expect(rw.keys('e')).toBe(false);
    expect(calls).toEqual(['bytes cd']);
    // Nothing was sent on the way: a refusal's error comes from the `input` message the caller dispatches then.
    expect([none, ro, rw].flatMap((x) => x.socket.sent)).toEqual([]);
  });

  it('a read-only client may always detach, in either encoding', () => {
    const r = rig();
    const { socket, send } = r.client({ readOnly: true });
    const id = send({ type: 'detach' }, true);
    expect(socket.sent).toEqual([
      { type: 'cmd_ack', commandId: id, stage: 'applied' },
      { type: 'bye', reason: 'detach' },
    ]);
  });

  it('enveloped resizes of one burst: the older is superseded at once, the newest applied on the next turn of the scheduler', () => {
    const r = rig();
    const { socket, send } = r.client({});
    const first = send({ type: 'resize', cols: 100, rows: 30 }, true);
    const second = send({ type: 'resize', cols: 120, rows: 40 }, true);
    expect(socket.sent).toEqual([{ type: 'cmd_ack', commandId: first, stage: 'superseded', byCommandId: second }]);
    expect(r.time.pending).toBe(1);
    r.time.advance(0);
    expect(socket.sent.at(-1)).toEqual({ type: 'cmd_ack', commandId: second, stage: 'applied', cols: 120, rows: 40 });
    expect(r.time.pending).toBe(0);
  });
});
