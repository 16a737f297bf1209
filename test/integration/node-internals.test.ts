/**
 * What the runner uses of node's own insides (src/runner/node-internals.ts), each against the
 * real thing: a PTY's slave as a client's terminal, a unix socket pair, a listening server. Each
 * reader falls back quietly where node is not as expected (the runner then takes the slower,
 * documented way), so a node upgrade that moved one would show only as lost speed or memory:
 * here it fails.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tty from 'node:tty';
import pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { holdSocketReads, listenPipeDirectly, makeNonBlocking, streamFd, ttyReaderInto, undoSocketDecoding } from '../../src/runner/node-internals.js';
import { waitFor } from '../helpers/home.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanups.splice(0).reverse()) f();
});

/** A PTY whose program never reads it, and its slave opened as the runner opens a client's terminal. */
function terminal() {
  const p = pty.spawn('sleep', ['30'], { name: 'xterm-256color', cols: 80, rows: 24 });
  cleanups.push(() => p.kill('SIGKILL'));
  const slave = (p as unknown as { ptsName: string }).ptsName;
  const open = (flags: number) => fs.openSync(slave, flags | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
  let fromSlave = '';
  p.onData((d) => (fromSlave += d));
  return { p, open, fromSlave: () => fromSlave };
}

/** A connected pair of unix sockets. */
async function socketPair(): Promise<{ a: net.Socket; b: net.Socket }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-node-internals-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const where = path.join(dir, 's');
  const server = net.createServer();
  cleanups.push(() => server.close());
  const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
  await new Promise<void>((r) => server.listen(where, r));
  const a = net.connect(where);
  const b = await accepted;
  cleanups.push(() => (a.destroy(), b.destroy()));
  return { a, b };
}

describe("node's insides, as the runner uses them", () => {
  it("a tty writer's fd and its non-blocking writes: what it writes reaches the terminal", async () => {
    const t = terminal();
    const out = new tty.WriteStream(t.open(fs.constants.O_WRONLY));
    cleanups.push(() => out.destroy());
    expect(streamFd(out)).toEqual(expect.any(Number));
    expect(makeNonBlocking(out)).toBe(true);
    out.write('direct-output\r\n');
    await waitFor('the write on the terminal', () => t.fromSlave().includes('direct-output'));
  });

  it("a tty reader whose reads come straight into our buffer (the constructor's onread)", async () => {
    const t = terminal();
    const got: string[] = [];
    const buffer = Buffer.alloc(64);
    const keys = ttyReaderInto(t.open(fs.constants.O_RDONLY), buffer, (bytes) => {
      expect(bytes.buffer).toBe(buffer.buffer); // our buffer, no copy
      got.push(bytes.toString('latin1'));
    });
    cleanups.push(() => keys.destroy());
    keys.resume();
    expect(streamFd(keys)).toEqual(expect.any(Number));
    t.p.write('keys\r');
    await waitFor('the keys read', () => got.join('').includes('keys'));
  });

  it("a socket's decoding undone: reads come as bytes after setEncoding", async () => {
    const { a, b } = await socketPair();
    b.setEncoding('utf8');
    expect(undoSocketDecoding(b)).toBe(true);
    const chunks: unknown[] = [];
    b.on('data', (d) => chunks.push(d));
    a.write('é');
    await waitFor('the read', () => chunks.length > 0);
    expect(Buffer.isBuffer(chunks[0])).toBe(true);
    expect(Buffer.concat(chunks as Buffer[]).toString('utf8')).toBe('é');
  });

  it("a socket's reads held while someone else reads its fd, and given back in order", async () => {
    const { a, b } = await socketPair();
    let read = '';
    b.on('data', (d: Buffer) => (read += d.toString('latin1')));
    a.write('before');
    await waitFor('the first read', () => read === 'before');
    const undo = holdSocketReads(b);
    expect(undo).not.toBeNull();
    a.write('held');
    await new Promise((r) => setTimeout(r, 200));
    expect(read).toBe('before'); // node does not read while held
    undo!();
    await waitFor('the held bytes, read again', () => read === 'beforeheld');
  });

  it('a server listening on a path below the cluster check, as listen would', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-node-internals-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const where = path.join(dir, 'sock');
    const server = net.createServer((s) => s.end('hi'));
    cleanups.push(() => server.close());
    const listening = new Promise<void>((r) => server.once('listening', r));
    expect(listenPipeDirectly(server, where)).toBe(true);
    await listening;
    expect(server.address()).toBe(where);
    const c = net.connect(where);
    let got = '';
    c.on('data', (d) => (got += String(d)));
    await waitFor('the greeting', () => got === 'hi');
    c.destroy();
  });
});
