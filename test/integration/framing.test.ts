/**
 * The framings against a real runner: a new client (RunnerConnection) negotiates binary1 and gets
 * the program's output byte for byte, multi-byte characters split across PTY reads included, while
 * an old-style client (a hello without `framing`, raw NDJSON over the socket) on the same runner at
 * the same time gets the same output as it always did. Against fake runners: a new client keeps
 * NDJSON with a runner that picks nothing, and binary garbage closes the connection with a reason.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunnerConnection, type ProtocolError } from '../../src/client/link/connection.js';
import { encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import type { RunnerHello, RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { socketPath } from '../../src/state/paths.js';
import { destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c();
});

/**
 * Waits for a line, then prints "AéB€😀" and "END" with each multi-byte character cut between
 * two writes 150 ms apart, so the PTY hands the runner the halves in separate reads.
 */
const SPLIT_PRINTER = [
  '--', 'sh', '-c',
  "stty -echo; IFS= read -r l; printf 'A\\303'; sleep 0.15; printf '\\251B\\342\\202'; sleep 0.15; printf '\\254\\360\\237'; sleep 0.15; printf '\\230\\200\\nEND\\n'; IFS= read -r l",
];
const PRINTED = 'AéB€😀\r\nEND\r\n';

const open = async (sock: string, framings?: []) => {
  const conn = await RunnerConnection.open(sock, { client: 'framing-test', scheduler: REAL_TIME.scheduler, framings });
  cleanup.push(() => conn.dispose());
  return conn;
};

describe('framings with a real runner', () => {
  it('a new client gets binary1 and exact output while an NDJSON client on the same runner gets the same', async () => {
    const home = makeHome();
    cleanup.push(() => destroyHome(home));
    const id = newSession(home, SPLIT_PRINTER);

    const conn = await open(socketPath(home, id));
    expect(conn.framing).toBe('binary1');
    expect(conn.hello.framing).toBe('binary1');
    const raw: Buffer[] = [];
    conn.socket.on('data', (b: Buffer) => raw.push(b));
    const messages: RunnerMessage[] = [];
    const errors: ProtocolError[] = [];
    conn.onMessage((m) => messages.push(m));
    conn.onError((e) => errors.push(e));
    conn.send({ type: 'subscribe_terminal' });

    const old = await RawClient.hello(home, id); // throws on any frame it cannot read as NDJSON
    cleanup.push(() => old.close());
    expect('framing' in (old.messages[0] as RunnerHello)).toBe(false);
    old.send({ type: 'subscribe_terminal' });
    await old.next((m) => m.type === 'snapshot_end');
    await waitFor('the new client live', () => messages.some((m) => m.type === 'snapshot_end'));

    conn.send({ type: 'input', data: 'go\n' });
    const outputs = () => messages.filter((m): m is Extract<RunnerMessage, { type: 'output' }> => m.type === 'output');
    await waitFor('the printed text on the new client', () => outputs().map((m) => m.data).join('').includes('END\r\n'));
    await waitFor('the printed text on the old client', () => old.outputText().includes('END\r\n'));

    expect(outputs().map((m) => m.data).join('')).toBe(PRINTED);
    expect(old.outputText()).toBe(PRINTED);
    expect(outputs().length).toBeGreaterThanOrEqual(3); // the halves came in reads of their own
    expect(errors).toEqual([]);
    // What came over the socket was binary1: frames by type byte, no JSON output line anywhere.
    const wire = Buffer.concat(raw);
    expect([0x01, 0x02]).toContain(wire[0]);
    expect(wire.includes('"type":"output"')).toBe(false);
    expect(wire.includes(Buffer.from('😀'))).toBe(true); // the raw UTF-8, not an escape
  });

  it('a client that offers nothing keeps NDJSON, through the same RunnerConnection', async () => {
    const home = makeHome();
    cleanup.push(() => destroyHome(home));
    const id = newSession(home, SPLIT_PRINTER);
    const conn = await open(socketPath(home, id), []);
    expect(conn.framing).toBe('ndjson');
    expect(conn.hello.framing).toBeUndefined();
    const messages: RunnerMessage[] = [];
    conn.onMessage((m) => messages.push(m));
    conn.send({ type: 'subscribe_terminal' });
    await waitFor('live', () => messages.some((m) => m.type === 'snapshot_end'));
    conn.send({ type: 'input', data: 'go\n' });
    const text = () => messages.flatMap((m) => (m.type === 'output' ? [m.data] : [])).join('');
    await waitFor('the printed text', () => text().includes('END\r\n'));
    expect(text()).toBe(PRINTED);
  });
});

/** A server that answers the hello with `hello`, then writes each of `after` 50 ms apart. */
async function fakeRunner(hello: object, after: Array<string | Buffer>): Promise<{ sock: string; helloSeen: Promise<string> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-framing-'));
  const sock = path.join(dir, 's');
  let seen!: (s: string) => void;
  const helloSeen = new Promise<string>((r) => (seen = r));
  const server = net.createServer((s) => {
    s.once('data', (d) => {
      seen(d.toString('utf8'));
      s.write(encodeFrame(hello));
      after.forEach((a, i) => setTimeout(() => s.writable && s.write(a), 50 * (i + 1)));
    });
    s.on('error', () => undefined); // the client closing on garbage is what a test does
  });
  await new Promise<void>((r) => server.listen(sock, r));
  cleanup.push(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { sock, helloSeen };
}

const HELLO = { type: 'hello', protocol: 1, generation: 'gen-1', host: { id: 'abc' } };

describe('framings with fake runners', () => {
  it('an older runner (a reply without framing): the new client offers binary1 and reads NDJSON, split characters included', async () => {
    const euro = Buffer.from(encodeFrame({ type: 'output', seq: 0, data: 'x€y' }));
    const cutAt = euro.indexOf(Buffer.from('€')) + 1; // inside the euro sign
    const { sock, helloSeen } = await fakeRunner(HELLO, [euro.subarray(0, cutAt), euro.subarray(cutAt)]);
    const conn = await open(sock);
    expect(JSON.parse(await helloSeen)).toMatchObject({ type: 'hello', framing: ['binary1'] });
    expect(conn.framing).toBe('ndjson');
    const messages: RunnerMessage[] = [];
    conn.onMessage((m) => messages.push(m));
    await expect.poll(() => messages, { timeout: 3000 }).toEqual([{ type: 'output', seq: 0, data: 'x€y' }]);
  });

  it('garbage after a binary1 hello: one bad_frame error, then the connection closes saying why', async () => {
    const { sock } = await fakeRunner({ ...HELLO, framing: 'binary1' }, [encodeFrame({ type: 'output', seq: 0, data: 'ndjson by mistake' })]);
    const conn = await open(sock);
    expect(conn.framing).toBe('binary1');
    const errors: ProtocolError[] = [];
    let closed: Error | null | undefined;
    conn.onError((e) => errors.push(e));
    conn.onClose((e) => (closed = e));
    await expect.poll(() => closed, { timeout: 3000 }).toBeInstanceOf(Error);
    expect(errors).toEqual([{ code: 'bad_frame', message: 'unknown frame type 0x7b: the stream is not binary1' }]);
    expect(closed!.message).toBe("the runner's stream cannot be read on: unknown frame type 0x7b: the stream is not binary1");
  });
});
