/**
 * The PTY's bytes on their way out of a real runner: with multi-byte characters cut across PTY
 * reads (a 4-byte emoji in three reads among them) and bytes that are not UTF-8, a binary1
 * client, an NDJSON client, the direct terminal and a snapshot all show the same output; the
 * direct terminal gets exactly the UTF-8 of the text the socket clients get; and a character
 * the program leaves unfinished at its exit still reaches the clients (as U+FFFD) before `exit`.
 */
import fs from 'node:fs';
import pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { socketPath } from '../../src/state/paths.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { connector, detachKey } from '../helpers/direct-terminal.js';
import { destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal, screenOf } from '../helpers/screen.js';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c();
});

/**
 * Waits for a line, then prints its output in writes 150 ms apart, so the PTY hands the runner
 * each piece in a read of its own: é cut 1+1, € 2+1, 😀 1+1+2, a chunk with a byte that is
 * never UTF-8 (0xff) after a 😀 finished in it, 😀 cut 3+1, then END.
 */
const PIECES = ['A\\303', '\\251B\\342\\202', '\\254\\360', '\\237', '\\230\\200', '\\360\\237', '\\230\\200\\377Z\\360\\237\\230', '\\200\\nEND\\n'];
const PRINTER = ['--', 'sh', '-c', `stty -echo; IFS= read -r l; ${PIECES.map((p) => `printf '${p}'`).join('; sleep 0.15; ')}; IFS= read -r l`];
/** What every client sees: the byte that is not UTF-8 as U+FFFD, as Buffer's decoder gives it. */
const PRINTED = 'AéB€😀😀\ufffdZ😀\r\nEND\r\n';

/** A PTY held by a sleeping process, standing for the user's terminal (raw, as an attach makes it: no CR added); everything written to it kept as bytes. */
async function bytesTerminal() {
  const p = pty.spawn('sh', ['-c', 'stty raw -echo; exec sleep 600'], { name: 'xterm-256color', cols: 80, rows: 24, encoding: null });
  cleanup.push(() => p.kill('SIGKILL'));
  const got: Buffer[] = [];
  p.onData((d) => got.push(d as unknown as Buffer));
  await waitFor('the terminal, raw', () => fs.readlinkSync(`/proc/${p.pid}/exe`).endsWith('/sleep'));
  const identity = { path: fs.readlinkSync(`/proc/${p.pid}/fd/1`), pid: p.pid, startTime: processStartTime(p.pid)!, fd: 1, bootId: bootId()! };
  return { identity, bytes: () => Buffer.concat(got) };
}

type Output = Extract<RunnerMessage, { type: 'output' }>;

describe('the PTY bytes through a real runner', () => {
  it('a binary1 client, an NDJSON client, the direct terminal and a snapshot all agree, characters cut across reads and bad bytes included', async () => {
    const home = makeHome();
    cleanup.push(() => destroyHome(home));
    const id = newSession(home, PRINTER);

    const conn = await RunnerConnection.open(socketPath(home, id), { client: 'bytes-test', scheduler: REAL_TIME.scheduler });
    cleanup.push(() => conn.dispose());
    expect(conn.framing).toBe('binary1');
    const messages: RunnerMessage[] = [];
    conn.onMessage((m) => messages.push(m));
    conn.send({ type: 'subscribe_terminal' });
    const old = await RawClient.hello(home, id);
    cleanup.push(() => old.close());
    old.send({ type: 'subscribe_terminal' });

    const user = await bytesTerminal();
    const keys = new FakeTerminal(80, 24);
    const attached = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: keys.keys, output: keys.screen, detachKey: detachKey(), terminal: user.identity, log: () => undefined });
    await old.next((m) => m.type === 'snapshot_end');
    await waitFor('the binary1 client live', () => messages.some((m) => m.type === 'snapshot_end'));
    await waitFor('the direct terminal drawn', () => user.bytes().length > 0);

    keys.type('go\r');
    const text = () => messages.filter((m): m is Output => m.type === 'output').map((m) => m.data).join('');
    await waitFor('the output on the binary1 client', () => text().includes('END\r\n'));
    await waitFor('the output on the NDJSON client', () => old.outputText().includes('END\r\n'));
    await waitFor('the output on the direct terminal', () => user.bytes().includes('END\r\n'));
    expect(text()).toBe(PRINTED);
    expect(old.outputText()).toBe(PRINTED);
    expect(messages.filter((m) => m.type === 'output').length).toBeGreaterThanOrEqual(PIECES.length - 2); // the pieces came in reads of their own
    // The direct terminal: its first frame, then exactly the socket clients' text as UTF-8.
    const direct = user.bytes();
    const expected = Buffer.from(PRINTED, 'utf8');
    expect(direct.subarray(direct.length - expected.length).equals(expected)).toBe(true);

    // A snapshot now shows what the live clients drew.
    const late = await RawClient.hello(home, id);
    cleanup.push(() => late.close());
    late.send({ type: 'subscribe_terminal' });
    const begin = await late.next<Extract<RunnerMessage, { type: 'snapshot_begin' }>>((m) => m.type === 'snapshot_begin');
    const frame = await late.next<Extract<RunnerMessage, { type: 'snapshot_screen' }>>((m) => m.type === 'snapshot_screen');
    const [fromSnapshot, fromLive] = [await screenOf(frame.data, begin.cols, begin.rows), await screenOf(PRINTED, begin.cols, begin.rows)];
    expect(fromSnapshot.lines).toEqual(fromLive.lines);
    expect(fromSnapshot.cells).toBe(fromLive.cells);
    expect(fromSnapshot.lines[0]).toBe('AéB€😀😀\ufffdZ😀');

    keys.type('\x1c');
    expect(await attached).toEqual({ reason: 'detached' });
  });

  it('a character the program leaves unfinished at its exit reaches the clients before the exit', async () => {
    const home = makeHome();
    cleanup.push(() => destroyHome(home));
    const id = newSession(home, ['--', 'sh', '-c', "stty -echo; IFS= read -r l; printf 'bye\\342\\202'; exit 3"]);
    const c = await RawClient.hello(home, id);
    cleanup.push(() => c.close());
    c.send({ type: 'subscribe_terminal' });
    await c.next((m) => m.type === 'snapshot_end');
    c.send({ type: 'input', data: 'go\n' });
    await c.next((m) => m.type === 'exit');
    expect(c.outputText()).toBe('bye\ufffd');
    const types = c.messages.map((m) => m.type);
    expect(types.lastIndexOf('output')).toBeLessThan(types.indexOf('exit'));
  });
});
