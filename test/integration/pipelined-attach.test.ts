/**
 * The CLI attach's first subscribe goes with the hello (ConnectOptions.pipelined, docs/protocol.md
 * "Pipelining"), against a real runner: the runner answers it as if it came after its hello, what
 * comes in the hello's own read reaches the first listener, and the attach draws its first frame
 * without a subscribe of its own.
 */
import net from 'node:net';
import { Duplex } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import type { ClientMessage } from '../../src/core/protocol/client-messages.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { socketPath } from '../../src/state/paths.js';
import { destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { FakeTerminal } from '../helpers/screen.js';
import { REAL_TIME } from '../helpers/real-time.js';

/**
 * The socket, with what the runner sends in its first 300 ms handed on in one read: the hello and
 * the whole snapshot together, as a busy client may read them.
 */
function heldBack(socket: net.Socket): Duplex {
  const held: Buffer[] = [];
  let holding = true;
  const d = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      socket.write(chunk, cb);
    },
    final(cb) {
      socket.end(cb);
    },
    destroy(err, cb) {
      socket.destroy();
      cb(err);
    },
  });
  socket.on('data', (b: Buffer) => (holding ? held.push(b) : d.push(b)));
  socket.on('close', () => d.destroy());
  socket.on('error', (err) => d.destroy(err)); // the runner resets a socket it has let go of: the connection's close
  setTimeout(() => {
    holding = false;
    d.push(Buffer.concat(held));
  }, 300);
  return d;
}

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

const PRINTS = ['--', 'sh', '-c', "printf 'first-line\\n'; exec cat"];

describe('the first subscribe pipelined with the hello', () => {
  it('is answered with the whole snapshot, at its size, and nothing is lost from the hello\'s read', async () => {
    const id = newSession(home, PRINTS);
    const sub: ClientMessage = { type: 'subscribe_terminal', cols: 90, rows: 20 };
    for (let round = 0; round < 5; round++) {
      const conn = await RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'pipeline-test', pipelined: [sub] });
      expect(conn.pipelined).toEqual([sub]);
      const got: RunnerMessage[] = [];
      conn.onMessage((m) => got.push(m));
      await waitFor('the snapshot', () => got.some((m) => m.type === 'snapshot_end'), 5000);
      expect(got.map((m) => m.type)).toEqual(['snapshot_begin', 'snapshot_screen', 'snapshot_end']);
      expect(got[0]).toMatchObject({ cols: 90, rows: 20 });
      expect(got.find((m) => m.type === 'snapshot_screen')).toMatchObject({ data: expect.stringContaining('first-line') });
      conn.dispose();
    }
  });

  it('lets runAttach draw its first frame without a subscribe after the hello, when all of it comes in the hello\'s read, and detach as before', async () => {
    const id = newSession(home, PRINTS);
    const t = new FakeTerminal(100, 30);
    const sent: ClientMessage[] = [];
    const firstConnect = async (pipelined: readonly ClientMessage[]) => {
      const conn = await RunnerConnection.over(heldBack(net.createConnection(socketPath(home, id))), { scheduler: REAL_TIME.scheduler, client: 'attach-test', pipelined });
      const send = conn.send.bind(conn);
      conn.send = (m: ClientMessage) => {
        sent.push(m);
        send(m);
      };
      return conn;
    };
    const k = parseDetachKey('ctrl-\\');
    if (!k.ok) throw new Error(k.message);
    const connect = () => firstConnect([]);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect, firstConnect, input: t.keys, output: t.screen, detachKey: k.key });
    await waitFor('first frame', () => t.screen.drawn.includes('first-line'));
    expect(sent.map((m) => m.type)).not.toContain('subscribe_terminal');
    expect(sent[0]?.type).toBe('reconcile');
    t.type('typed\r');
    await waitFor('the echo', () => t.screen.drawn.includes('typed'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });
});
