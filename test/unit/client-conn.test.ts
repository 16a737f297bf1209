import { describe, expect, it } from 'vitest';
import { ClientConn } from '../../src/runner/clients/client-conn.js';
import { streamTransition, type StreamState } from '../../src/runner/clients/stream-state.js';
import { SharedFrame } from '../../src/runner/clients/wire-framing.js';
import { FakeSocket } from '../helpers/fake-socket.js';

function conn() {
  const socket = new FakeSocket();
  const logged: string[] = [];
  const c = new ClientConn(socket.asSocket, (m) => void logged.push(m));
  return { socket, logged, c };
}

/** Puts a fresh connection in `state` through legal changes only. */
function at(state: StreamState) {
  const t = conn();
  if (state === 'snapshot') t.c.beginSnapshot();
  if (state === 'live' || state === 'lagging') t.c.goLive(0, []);
  if (state === 'lagging') t.c.lag(() => undefined);
  expect(t.c.stream).toBe(state);
  return t;
}

describe('ClientConn stream states', () => {
  const legal: Array<[StreamState, StreamState]> = [
    ['none', 'snapshot'],
    ['none', 'live'],
    ['snapshot', 'snapshot'],
    ['snapshot', 'live'],
    ['live', 'snapshot'],
    ['live', 'live'],
    ['live', 'lagging'],
    ['lagging', 'snapshot'],
    ['lagging', 'live'],
  ];
  const illegal: Array<[StreamState, StreamState]> = [
    ['none', 'lagging'],
    ['snapshot', 'lagging'],
    ['lagging', 'lagging'],
    ['none', 'none'],
    ['live', 'none'],
  ];

  it.each(legal)('%s -> %s is allowed', (from, to) => {
    expect(streamTransition(from, to)).toEqual({ ok: true });
    const { c, logged } = at(from);
    const t = to === 'snapshot' ? c.beginSnapshot() : to === 'live' ? c.goLive(0, []) : c.lag(() => undefined);
    expect(t).toEqual({ ok: true });
    expect(c.stream).toBe(to);
    expect(logged).toEqual([]);
  });

  it.each(illegal)('%s -> %s is refused: an error value and a log line, the state unchanged', (from, to) => {
    const t = streamTransition(from, to);
    expect(t.ok).toBe(false);
    if (to === 'none') return; // no method leads back to none: the guard alone says so
    const { c, logged } = at(from);
    const r = to === 'snapshot' ? c.beginSnapshot() : to === 'live' ? c.goLive(0, []) : c.lag(() => undefined);
    expect(r).toEqual({ ok: false, message: `stream ${from} -> ${to} is not a legal change` });
    expect(c.stream).toBe(from);
    expect(logged).toEqual([`client ${c.id}: stream ${from} -> ${to} is not a legal change; refused`]);
  });

  it('going live sends what was missed, in order, and moves the cursor past it; live output is sent only at the cursor', () => {
    const { c, socket } = conn();
    c.goLive(5, [
      { seq: 5, data: 'a' },
      { seq: 6, data: 'b' },
    ]);
    expect(socket.sent).toEqual([
      { type: 'output', seq: 5, data: 'a' },
      { type: 'output', seq: 6, data: 'b' },
    ]);
    expect(c.cursor).toBe(7);
    expect(c.pushLive({ seq: 8, data: 'x' }, new SharedFrame({ type: 'output', seq: 8, data: 'x' }))).toBe(false); // a gap: not this client's next chunk
    expect(c.pushLive({ seq: 7, data: 'c' }, new SharedFrame({ type: 'output', seq: 7, data: 'c' }))).toBe(true);
    expect(c.cursor).toBe(8);
  });

  it('a client that is not live gets no live output', () => {
    const { c, socket } = at('snapshot');
    expect(c.pushLive({ seq: 0, data: 'x' }, new SharedFrame({ type: 'output', seq: 0, data: 'x' }))).toBe(false);
    c.catchUp([{ seq: 0, data: 'x' }]);
    expect(socket.sent).toEqual([]);
  });

  it('a lagging client is called back once its socket drains, and not after it was disposed', () => {
    const { c, socket } = at('live');
    let drained = 0;
    c.lag(() => drained++);
    socket.emit('drain');
    socket.emit('drain');
    expect(drained).toBe(1);
    const other = at('live');
    other.c.lag(() => drained++);
    other.c.dispose();
    other.socket.emit('drain');
    expect(drained).toBe(1);
    expect(other.socket.listenerCount('drain')).toBe(0);
    expect(other.socket.destroyed).toBe(true);
  });

  it('hello, size and status pushes are the connection’s own state, changed through its methods', () => {
    const { c } = conn();
    expect([c.greeted, c.readOnly, c.name, c.size, c.watchesStatus, c.lastActive]).toEqual([false, false, '', null, false, 0]);
    c.greet({ readOnly: true, name: 'board' });
    c.want({ cols: 100, rows: 30 }, 1234);
    c.watchStatus();
    expect([c.greeted, c.readOnly, c.name, c.size, c.watchesStatus, c.lastActive]).toEqual([true, true, 'board', { cols: 100, rows: 30 }, true, 1234]);
  });

  it('dispose leaves a socket that is already ending to flush its goodbye', () => {
    const { c, socket } = conn();
    c.finish({ type: 'bye', reason: 'exit' });
    c.dispose();
    expect(socket.destroyed).toBe(false);
    expect(socket.sent).toEqual([{ type: 'bye', reason: 'exit' }]);
  });
});
