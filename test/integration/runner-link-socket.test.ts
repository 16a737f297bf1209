/**
 * A RunnerLink over real unix sockets (src/client/link/runner-link.ts with RunnerConnection): a
 * try that is on its way when the link is disposed (a runner that accepted but has not said hello)
 * is failed at once, its socket closed, instead of lingering until the hello timeout; and a runner
 * that answers after the link gave up on that try never becomes its connection.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunnerConnection } from '../../src/client/link/connection.js';
import { RunnerLink } from '../../src/client/link/runner-link.js';
import { encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import { PROTOCOL_VERSION } from '../../src/core/protocol/protocol.js';
import { FakeTime } from '../helpers/fake-time.js';
import { waitFor } from '../helpers/home.js';

let dir: string;
let server: net.Server;
const accepted: net.Socket[] = [];
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-link-'));
  // A runner that accepts, reads what it is sent, and says nothing.
  server = net.createServer((s) => {
    accepted.push(s);
    s.on('error', () => undefined); // the client going first is what these tests do
    s.resume();
  });
  await new Promise<void>((r) => server.listen(path.join(dir, 'sock'), r));
});
afterEach(async () => {
  for (const s of accepted.splice(0)) s.destroy();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

function link(time: FakeTime) {
  return new RunnerLink<RunnerConnection>({
    connect: (owner) => RunnerConnection.open(path.join(dir, 'sock'), { client: 'test', scheduler: time, owner }),
    schedule: { delaysMs: [100], afterLast: 'repeat' },
    scheduler: time,
  });
}

describe('RunnerLink over a real socket', () => {
  it('dispose fails a try on its way at once: the socket closes, no hello timeout is left behind', async () => {
    const time = new FakeTime();
    const l = link(time);
    l.start();
    await waitFor('accepted', () => accepted.length === 1);
    const closed = new Promise<void>((r) => accepted[0]!.on('close', () => r()));
    expect(time.pending).toBe(1); // the hello's timeout
    l.dispose();
    await closed; // the runner sees the client go now, not after HELLO_TIMEOUT_MS
    await waitFor('the hello timeout cancelled by the failed try', () => time.pending === 0, 1000);
    expect(l.state).toEqual({ kind: 'disposed' });
  });

  it('a hello that comes after the link stopped that try never makes it current', async () => {
    const time = new FakeTime();
    const l = link(time);
    const opened: RunnerConnection[] = [];
    l.onOpen(({ conn }) => opened.push(conn));
    l.start();
    await waitFor('accepted', () => accepted.length === 1);
    l.stop(); // the preview turned final, say
    const hello = { type: 'hello', protocol: PROTOCOL_VERSION, generation: 'g1', host: { id: 'x' } };
    accepted[0]!.write(encodeFrame(hello as never)); // too late: that try's socket is gone
    await new Promise((r) => setTimeout(r, 100));
    expect(opened).toEqual([]);
    expect(l.state).toEqual({ kind: 'idle' });
    l.dispose();
  });
});
