/**
 * RunnerConnection's errors as events, against a tiny net.Server speaking the protocol: a bad
 * frame fires onError with what was wrong and the connection carries on; when the connection
 * closes, every wait still pending on it (a control channel's ack) fails, never silence.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunnerConnection, type ProtocolError } from '../../src/client/link/connection.js';
import { ControlChannel } from '../../src/client/send/control-channel.js';
import { encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { REAL_TIME } from '../helpers/real-time.js';

const HELLO = { type: 'hello', protocol: 1, generation: 'gen-1', host: { id: 'abc', name: 'fake' } };

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c();
});

/** A server that answers the hello, then (a moment later) writes `after` (raw text) to the client; resolves with its socket path and the server's side. */
async function fakeRunner(after: string): Promise<{ sock: string; peer: Promise<net.Socket> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-conn-'));
  const sock = path.join(dir, 's');
  let gotPeer!: (s: net.Socket) => void;
  const peer = new Promise<net.Socket>((r) => (gotPeer = r));
  const server = net.createServer((s) => {
    s.once('data', () => {
      s.write(encodeFrame(HELLO));
      // After the client has its connection (a runner speaks again only when asked, too).
      setTimeout(() => s.write(after), 50);
      gotPeer(s);
    });
    s.on('error', () => undefined); // the client going away mid-test is what some tests do
  });
  await new Promise<void>((r) => server.listen(sock, r));
  cleanup.push(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { sock, peer };
}

const open = async (sock: string) => {
  const conn = await RunnerConnection.open(sock, { client: 'test', scheduler: REAL_TIME.scheduler });
  cleanup.push(() => conn.dispose());
  return conn;
};

describe('RunnerConnection errors', () => {
  it('a malformed frame fires onError with what was wrong; the frames after it still arrive', async () => {
    const { sock } = await fakeRunner('{"type": "status", oops\n' + '[1,2]\n' + encodeFrame({ type: 'pong' }));
    const conn = await open(sock);
    const errors: ProtocolError[] = [];
    const messages: RunnerMessage[] = [];
    conn.onError((e) => errors.push(e));
    conn.onMessage((m) => messages.push(m));
    await expect.poll(() => messages.length, { timeout: 3000 }).toBe(1);
    expect(messages[0]!.type).toBe('pong');
    expect(errors.map((e) => e.code)).toEqual(['malformed_json', 'not_a_message']);
    expect(errors[0]!.message).toMatch(/^malformed JSON/);
    expect(conn.closed).toBe(false); // the connection carries on
  });

  it('a frame over the size limit is an error event too', async () => {
    const { sock } = await fakeRunner('"' + 'x'.repeat(17 * 1024 * 1024) + '"\n' + encodeFrame({ type: 'pong' }));
    const conn = await open(sock);
    const errors: ProtocolError[] = [];
    conn.onError((e) => errors.push(e));
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBe(1);
    expect(errors[0]!.code).toBe('frame_too_large');
  });

  it('on close every pending wait fails with a reason', async () => {
    const { sock, peer } = await fakeRunner('');
    const conn = await open(sock);
    const ch = new ControlChannel(conn);
    const waiting = ch.waitFor('cmd-1', ['applied'], 60_000);
    const reconcile = ch.reconcile([], 60_000);
    let closedWith: Error | null | undefined;
    conn.onClose((e) => (closedWith = e));
    (await peer).end(); // an orderly close
    await expect(waiting).resolves.toEqual({ ok: false, reason: 'closed', message: 'the connection to the session closed' });
    await expect(reconcile).resolves.toBeNull();
    expect(closedWith).toBeNull();
    ch.dispose();
  });
});
