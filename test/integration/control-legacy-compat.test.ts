/**
 * Clients without envelopes behave byte for byte as before the control
 * lifecycle: the same frames in the same order, each line the canonical JSON
 * of its object, no cmd_ack or reconcile_result ever, the PTY gets exactly
 * the bytes sent (no bracketed paste added, no Enter), and the error shapes
 * have no commandId. This pins what a legacy client sees.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { OutputMsg, RunnerMessage, SnapshotEnd } from '../../src/core/protocol/runner-messages.js';
import { controlJournalFile } from '../../src/state/paths.js';
import { EnvClient, readHost, received, recorderArgs, recorderDir, recorderReady } from '../helpers/control.js';
import { destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';

let home: string;
let dir: string;
const closers: Array<() => void> = [];
beforeEach(() => {
  home = makeHome();
  dir = recorderDir(home);
});
afterEach(() => {
  closers.splice(0).forEach((f) => f());
  destroyHome(home);
});

/** A raw client that also keeps every line exactly as it came off the wire. */
async function wire(id: string): Promise<{ c: RawClient; lines: string[] }> {
  const c = await RawClient.connect(home, id);
  closers.push(() => c.close());
  const lines: string[] = [];
  let buf = '';
  c.socket.on('data', (chunk: string) => {
    buf += chunk;
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  return { c, lines };
}

async function start(...flags: string[]): Promise<string> {
  const id = newSession(home, recorderArgs(dir, ...flags));
  await recorderReady(dir);
  return id;
}

const HOST_KEYS = ['agent', 'args', 'childPid', 'cols', 'command', 'createdAt', 'cwd', 'exitCode', 'exitSignal', 'generation', 'heartbeatAt', 'id', 'lastOutputAt', 'name', 'revision', 'rows', 'runnerPid', 'scrollback', 'status', 'updatedAt'];
const FRAME_KEYS: Record<string, string[]> = {
  hello: ['type', 'protocol', 'generation', 'host'],
  snapshot_begin: ['type', 'seq', 'cols', 'rows', 'generation', 'historyLines'],
  snapshot_screen: ['type', 'data'],
  snapshot_end: ['type', 'nextSeq'],
  output: ['type', 'seq', 'data'],
  status: ['type', 'host', 'generation'],
  bye: ['type', 'reason'],
  error: ['type', 'code', 'message'],
};
/** Fields added since v1, all optional: a legacy reader ignores them (unknown fields are ignored, docs/protocol.md). */
const ADDITIVE_KEYS = new Set(['previewLine', 'room', 'activity', 'activitySource', 'activitySince', 'resumeId', 'extraArgs', 'env', 'runnerBootId', 'runnerStartTime', 'childStartTime', 'forkOf']);
const hostKeys = (h: HostRecord) => Object.keys(h).filter((k) => !ADDITIVE_KEYS.has(k)).sort();

describe('legacy clients (no envelopes)', () => {
  it('hello, subscribe, input, resize, interrupt, status, detach: exactly the frames of before, and the program gets exactly the bytes', async () => {
    const id = await start('--paste'); // bracketed paste on: a legacy multi-line input must still go in as is
    const { c, lines } = await wire(id);
    c.send({ type: 'hello', protocol: 1, client: 'legacy' });
    await c.next((m) => m.type === 'hello');
    c.send({ type: 'subscribe_terminal' });
    const end = await c.next<SnapshotEnd>((m) => m.type === 'snapshot_end');
    const sent = ['abc\x1b[A\r', 'line one\nline two', '\x1b[200~not ours\x1b[201~', 'é€😀'];
    for (const data of sent) c.send({ type: 'input', data });
    c.send({ type: 'resize', cols: 100, rows: 30 });
    c.send({ type: 'interrupt' });
    await waitFor('all typed', () => received(dir).endsWith('\x03'));
    await waitFor('resized', () => c.outputText().includes('size:100x30'));
    c.send({ type: 'status' });
    await c.next((m) => m.type === 'status');
    c.send({ type: 'detach' });
    await c.next((m) => m.type === 'bye');
    await waitFor('closed', () => c.closed);

    // The program got exactly the bytes, in order: no paste brackets added, no Enter, ^C as the byte.
    expect(received(dir)).toBe(sent.join('') + '\x03');
    // The frames, outputs aside, in exactly this order; nothing of the control lifecycle.
    const types = c.messages.map((m) => m.type);
    expect(types.filter((t) => t !== 'output')).toEqual(['hello', 'snapshot_begin', 'snapshot_screen', 'snapshot_end', 'status', 'bye']);
    expect(types.some((t) => t === 'cmd_ack' || t === 'reconcile_result' || t === 'error')).toBe(false);
    for (const m of c.messages) expect(Object.keys(m)).toEqual(FRAME_KEYS[m.type]);
    // Outputs follow the snapshot without a gap.
    const seqs = c.messages.filter((m): m is OutputMsg => m.type === 'output').map((m) => m.seq);
    expect(seqs.length).toBeGreaterThan(0);
    seqs.forEach((s, i) => expect(s).toBe(end.nextSeq + i));
    // Every line on the wire is the canonical JSON of its message: byte for byte.
    expect(lines).toHaveLength(c.messages.length);
    lines.forEach((l, i) => expect(l).toBe(JSON.stringify(c.messages[i])));
    expect(lines.at(-1)).toBe('{"type":"bye","reason":"detach"}');
    const hello = c.messages[0] as Extract<RunnerMessage, { type: 'hello' }>;
    expect(hello).toMatchObject({ protocol: 1, generation: hello.host.generation, host: { id, status: 'running' } });
    expect(hostKeys(hello.host)).toEqual(HOST_KEYS);
    const status = c.messages.find((m) => m.type === 'status') as Extract<RunnerMessage, { type: 'status' }>;
    expect(status.host).toMatchObject({ cols: 100, rows: 30 });
    expect(status.generation).toBe(hello.generation);
    // Nothing was journaled, and the session runs on; the size the legacy client borrowed went back with its detach (src/runner/clients/size-policy.ts).
    expect(fs.existsSync(controlJournalFile(home, id))).toBe(false);
    await waitFor('host.json has the size from before', () => readHost(home, id).cols === hello.host.cols && readHost(home, id).rows === hello.host.rows);
    expect(readHost(home, id).status).toBe('running');
  });

  it('legacy errors keep their shapes: no commandId, the same codes and messages', async () => {
    const id = await start();
    const { c, lines } = await wire(id);
    c.send({ type: 'status' });
    await c.next((m) => m.type === 'error');
    expect(lines[0]).toBe('{"type":"error","code":"not_hello","message":"send hello first"}');
    c.send({ type: 'hello', protocol: 1, client: 'legacy', readOnly: true });
    await c.next((m) => m.type === 'hello');
    const from = lines.length;
    const refused = [{ type: 'input', data: '<ro>' }, { type: 'resize', cols: 50, rows: 10 }, { type: 'interrupt' }, { type: 'terminate' }, { type: 'redraw' }];
    for (const m of refused) c.send(m);
    c.send({ type: 'input', data: '<durable-no-envelope>', durable: true });
    c.send({ type: 'nope' });
    c.raw('{oops\n');
    // Envelope fields on a type that takes none are ignored: a plain status.
    c.send({ type: 'status', commandId: 'x', seq: 0 });
    await c.next((m) => m.type === 'status');
    expect(lines.slice(from, from + refused.length + 3)).toEqual([
      ...refused.map((m) => JSON.stringify({ type: 'error', code: 'read_only', message: `${m.type} refused: this client attached read-only` })),
      '{"type":"error","code":"invalid_message","message":"durable input needs an envelope (commandId, clientId, seq, viewId, instanceId)"}',
      '{"type":"error","code":"unknown_type","message":"unknown message type \\"nope\\""}',
      lines[from + refused.length + 2]!,
    ]);
    expect(JSON.parse(lines[from + refused.length + 2]!)).toMatchObject({ type: 'error', code: 'malformed_json' });
    for (const m of c.messages) {
      expect(m.type).not.toBe('cmd_ack');
      if (m.type === 'error') expect(Object.keys(m)).toEqual(FRAME_KEYS.error);
    }
    const w = await wire(id); // a writable legacy client proves nothing was typed
    w.c.send({ type: 'hello', protocol: 1 });
    await w.c.next((m) => m.type === 'hello');
    w.c.send({ type: 'input', data: '<marker>' });
    await waitFor('marker', () => received(dir).includes('<marker>'));
    expect(received(dir)).toBe('<marker>');
    expect(readHost(home, id)).toMatchObject({ cols: 80, rows: 24, status: 'running' });
  });

  it("a legacy client sees nothing of an enveloped client's acks, rejections or reconciles", async () => {
    const id = await start();
    const { c } = await wire(id);
    c.send({ type: 'hello', protocol: 1 });
    await c.next((m) => m.type === 'hello');
    c.send({ type: 'subscribe_terminal' });
    await c.next((m) => m.type === 'snapshot_end');
    const e = await EnvClient.open(home, id);
    closers.push(() => e.close());
    expect((await e.prompt('<enveloped>', { submit: true })).ack.stage).toBe('applied');
    const rs = e.send({ type: 'resize', cols: 90, rows: 20 });
    await e.ack(rs, 'applied');
    e.send({ type: 'input', data: '<stale>' }, { instanceId: 'old' });
    e.send({ type: 'interrupt' }, { seq: 1 });
    await e.reconcile();
    c.send({ type: 'status' });
    await c.next((m) => m.type === 'status');
    expect(c.messages.map((m) => m.type).filter((t) => t !== 'output')).toEqual(['hello', 'snapshot_begin', 'snapshot_screen', 'snapshot_end', 'status']);
    expect(received(dir)).toBe('<enveloped>\r');
  });
});
