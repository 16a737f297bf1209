import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { OutputMsg, RunnerHello, SnapshotBegin } from '../../src/core/protocol/runner-messages.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';

let home: string;
const clients: RawClient[] = [];
beforeEach(() => {
  home = makeHome();
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.close());
  destroyHome(home);
});

async function hello(id: string, extra: Record<string, unknown> = {}) {
  const c = await RawClient.hello(home, id, extra);
  clients.push(c);
  return c;
}
const host = (id: string) => (JSON.parse(cli(home, ['ls', '--json']).stdout) as HostRecord[]).find((h) => h.id === id)!;

/** A shell-free echo: every line typed comes back as "echo:<line>". */
const ECHO = ['--', 'sh', '-c', 'stty -echo; while IFS= read -r l; do echo "echo:$l"; done'];

describe('protocol v1 against a live runner', () => {
  it('hello carries the protocol, a generation per runner boot and the host status', async () => {
    const id = newSession(home, ECHO);
    const c = await hello(id);
    const h = c.messages[0] as RunnerHello;
    expect(h.protocol).toBe(1);
    expect(h.generation).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.host).toMatchObject({ id, status: 'running' });
    c.send({ type: 'status' });
    const st = await c.next((m) => m.type === 'status');
    expect(st).toMatchObject({ host: { id } });
  });

  it('subscribe gives a snapshot, then live output; a resume from a held seq replays without a snapshot', async () => {
    const id = newSession(home, ECHO);
    const a = await hello(id);
    a.send({ type: 'subscribe_terminal' });
    const begin = await a.next<SnapshotBegin>((m) => m.type === 'snapshot_begin');
    await a.next((m) => m.type === 'snapshot_end');
    a.send({ type: 'input', data: 'one\n' });
    const out = await a.next<OutputMsg>((m) => m.type === 'output' && m.data.includes('echo:one'));
    expect(out.seq).toBeGreaterThanOrEqual(begin.seq);
    a.send({ type: 'input', data: 'two\n' });
    await waitFor('two', () => a.outputText().includes('echo:two'));

    // A second client resumes from the first output seq: it gets exactly the chunks since then.
    const b = await hello(id);
    b.send({ type: 'subscribe_terminal', sinceSeq: out.seq });
    await b.next((m) => m.type === 'replay_begin');
    await waitFor('replay', () => b.outputText().includes('echo:two'));
    expect(b.messages.some((m) => m.type === 'snapshot_begin')).toBe(false);
    expect(b.outputText()).toBe(a.outputText().slice(a.outputText().indexOf(out.data)));

    // A seq the ring never held gets a snapshot instead.
    const c = await hello(id);
    c.send({ type: 'subscribe_terminal', sinceSeq: 1_000_000 });
    await c.next((m) => m.type === 'snapshot_begin');
  });

  it('messages before hello, unknown types, bad JSON and oversized frames get an error and the runner keeps serving', async () => {
    const id = newSession(home, ECHO);
    const c = await RawClient.connect(home, id);
    clients.push(c);
    c.send({ type: 'status' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'not_hello' });
    c.send({ type: 'hello', protocol: 1 });
    await c.next((m) => m.type === 'hello');
    c.raw('{not json\n');
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'malformed_json' });
    c.send({ type: 'launch_missiles' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'unknown_type' });
    c.send({ type: 'resize', cols: 'wide' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'invalid_message' });
    c.raw(`{"type":"input","data":"${'x'.repeat(2 * 1024 * 1024)}"}\n`);
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'frame_too_large' });
    c.send({ type: 'status' });
    await c.next((m) => m.type === 'status');
  });

  it('a client of another protocol version is told so', async () => {
    const id = newSession(home, ECHO);
    const c = await RawClient.connect(home, id);
    clients.push(c);
    c.send({ type: 'hello', protocol: 99 });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'unsupported_protocol' });
    await waitFor('close', () => c.closed);
  });

  it('10,000 random and malformed frames: the runner still serves and the session is intact', async () => {
    const id = newSession(home, ECHO);
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const pieces = [
      () => '{"type":',
      () => '\n',
      () => '}}}\n',
      () => `{"type":"${['input', 'resize', 'hello', 'subscribe_terminal', 'nope', ''][Math.floor(rand() * 6)]}","cols":${Math.floor(rand() * 1e6) - 5e5},"rows":-1}\n`,
      () => JSON.stringify({ type: 'subscribe_terminal', sinceSeq: Math.floor(rand() * 1e9) }) + '\n',
      () => String.fromCharCode(...Array.from({ length: 20 }, () => Math.floor(rand() * 0x3000))) + '\n',
      () => '[1,2,3]\n',
      () => 'null\n',
      () => JSON.stringify({ type: 'input', data: 12 }) + '\n',
      () => JSON.stringify({ type: 'hello', protocol: 'x' }) + '\n',
    ];
    const fuzzers = await Promise.all([0, 1, 2, 3].map(() => RawClient.connect(home, id)));
    clients.push(...fuzzers);
    fuzzers[0]!.send({ type: 'hello', protocol: 1 }); // one greeted fuzzer reaches the handlers
    let sent = 0;
    while (sent < 10_000) {
      for (const f of fuzzers) {
        let batch = '';
        for (let i = 0; i < 50; i++) batch += pieces[Math.floor(rand() * pieces.length)]!();
        f.raw(batch);
        sent += 50;
      }
      await new Promise((r) => setImmediate(r));
    }
    const c = await hello(id);
    c.send({ type: 'subscribe_terminal' });
    await c.next((m) => m.type === 'snapshot_end');
    c.send({ type: 'input', data: 'still-alive\n' });
    await waitFor('echo', () => c.outputText().includes('echo:still-alive'));
    expect(host(id).status).toBe('running');
    expect(fuzzers.some((f) => f.messages.some((m) => m.type === 'error'))).toBe(true);
  });

  it('the PTY size follows the most recently active interactive client; read-only clients never resize or type', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; while IFS= read -r l; do echo "size:$(stty size)"; done']);
    const a = await hello(id);
    const b = await hello(id);
    const ro = await hello(id, { readOnly: true });
    for (const c of [a, b, ro]) c.send({ type: 'subscribe_terminal' });
    // Each client's messages are ordered, two clients' are not: a status round trip settles a's first.
    a.send({ type: 'resize', cols: 100, rows: 30 });
    a.send({ type: 'status' });
    await a.next((m) => m.type === 'status');
    b.send({ type: 'resize', cols: 90, rows: 20 });
    b.send({ type: 'input', data: '\n' });
    await waitFor('b size', () => b.outputText().includes('size:20 90'));
    a.send({ type: 'input', data: '\n' });
    await waitFor('a size', () => a.outputText().includes('size:30 100'));
    ro.send({ type: 'resize', cols: 40, rows: 10 });
    expect(await ro.next((m) => m.type === 'error')).toMatchObject({ code: 'read_only' });
    ro.send({ type: 'input', data: 'sneaky\n' });
    await ro.next((m) => m.type === 'error' && m.code === 'read_only');
    await waitFor('host size', () => host(id).cols === 100 && host(id).rows === 30);
    // When the active client leaves, the size goes to the one still there.
    a.close();
    await waitFor('b size again', () => host(id).cols === 90 && host(id).rows === 20);
    expect(a.outputText()).not.toContain('sneaky');
  });

  it('sizes are clamped to what a terminal can be', async () => {
    const id = newSession(home, ECHO);
    const a = await hello(id);
    a.send({ type: 'resize', cols: 100000, rows: 0 });
    await waitFor('clamped', () => host(id).cols === 1000 && host(id).rows === 1);
  });

  it('a client that stops reading never slows the session; it gets a fresh snapshot when it catches up', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'read go; head -c 30000000 /dev/zero | tr "\\0" "y"; echo; echo FINISHED-$((1+1)); exec sleep 60']);
    const slow = await hello(id);
    slow.send({ type: 'subscribe_terminal' });
    await slow.next((m) => m.type === 'snapshot_end');
    slow.socket.pause(); // stops reading: the runner's queue for it fills up
    const fast = await hello(id);
    fast.send({ type: 'subscribe_terminal' });
    await fast.next((m) => m.type === 'snapshot_end');
    fast.send({ type: 'input', data: 'go\n' });
    // Under load the reading client may fall behind too; then it sees the end in a fresh snapshot.
    const sawEnd = () =>
      fast.outputText().includes('FINISHED-2') ||
      fast.messages.some((m) => m.type === 'snapshot_screen' && m.data.includes('FINISHED-2'));
    await waitFor('finish', sawEnd, 60_000, 50);
    const snapshotsBefore = slow.messages.filter((m) => m.type === 'snapshot_begin').length;
    slow.socket.resume();
    await waitFor('re-snapshot', () => slow.messages.filter((m) => m.type === 'snapshot_begin').length > snapshotsBefore, 20_000);
    await waitFor('its end', () => slow.messages.filter((m) => m.type === 'snapshot_end').length > snapshotsBefore, 20_000);
    const screen = slow.messages.filter((m) => m.type === 'snapshot_screen').at(-1) as { data: string };
    expect(screen.data).toContain('FINISHED-2');
  }, 90_000);

  it('clients are told when the program exits, with its code, after its last output', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'read x; echo bye-now; exit 7']);
    const c = await hello(id);
    c.send({ type: 'subscribe_terminal' });
    await c.next((m) => m.type === 'snapshot_end');
    c.send({ type: 'input', data: '\n' });
    const exit = await c.next((m) => m.type === 'exit');
    expect(exit).toMatchObject({ code: 7, signal: null });
    expect(c.outputText()).toContain('bye-now');
    await c.next((m) => m.type === 'bye');
    await waitFor('closed', () => c.closed);
  });

  it('subscribe_status pushes every change of the host record: rename, size, exit', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'read x; exit 5']);
    const watcher = await hello(id);
    watcher.send({ type: 'subscribe_status' });
    await watcher.next((m) => m.type === 'status');
    const actor = await hello(id);
    actor.send({ type: 'rename', name: 'renamed' });
    await watcher.next((m) => m.type === 'status' && m.host.name === 'renamed');
    actor.send({ type: 'resize', cols: 77, rows: 22 });
    await watcher.next((m) => m.type === 'status' && m.host.cols === 77 && m.host.rows === 22);
    actor.send({ type: 'input', data: '\n' });
    const last = await watcher.next((m) => m.type === 'status' && m.host.status === 'exited');
    expect(last).toMatchObject({ host: { exitCode: 5 } });
  });
});
