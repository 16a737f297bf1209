/**
 * A reconnect, step by step: disconnect, hello, reconcile, subscribe (replay or
 * snapshot), resume; the reconcile result matches the runner (generation,
 * host revision, terminal cursor, unresolved prompts), and a restart is a new
 * generation that fences old envelopes.
 */
import { describe, expect, it } from 'vitest';
import type { ReconcileResult } from '../../src/core/protocol/control-protocol.js';
import type { OutputMsg, ReplayBegin, RunnerMessage, SnapshotBegin, SnapshotEnd } from '../../src/core/protocol/runner-messages.js';
import { count, EnvClient, readHost, reads, received, receivedByChild, recorderArgs, recorderReady, useControlHome } from '../helpers/control.js';
import { cliAsync, newSession, waitFor } from '../helpers/home.js';

let home: string;
let dir: string;
const open = useControlHome((h, d) => ((home = h), (dir = d)));
const outputs = (c: EnvClient, from = 0) => c.messages.slice(from).filter((m): m is OutputMsg => m.type === 'output');
const lastSeen = (c: EnvClient) => Math.max(-1, ...outputs(c).map((m) => m.seq));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Once nothing moves: a reconcile whose hostRevision is host.json's, read
 * before and after it, and (for a subscribed client) whose last seq is the
 * last one the client saw.
 */
async function settled(c: EnvClient, id: string, commandIds?: string[], subscribed = true): Promise<ReconcileResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const before = readHost(home, id).revision;
    const seen = lastSeen(c);
    const r = await c.reconcile(commandIds);
    if (r.hostRevision === before && readHost(home, id).revision === before && (!subscribed || (r.terminalCursor.lastSeq === seen && lastSeen(c) === seen))) return r;
    if (Date.now() > deadline) throw new Error(`never settled: ${JSON.stringify({ r, before, seen })}`);
    await sleep(100);
  }
}

describe('reconnect: hello, reconcile, subscribe, resume', () => {
  it('the baseline matches the runner, a queued when-idle prompt is reported until it is typed, and the stream resumes without a gap', async () => {
    const id = newSession(home, recorderArgs(dir, '--tick', '100'));
    await recorderReady(dir);
    const a = await open(id);
    a.raw.send({ type: 'subscribe_terminal' });
    await a.waitMsg((m) => m.type === 'snapshot_end');
    // A prompt for when the program is quiet, while it keeps printing: accepted, queued.
    const queued = await a.prompt('<when-idle>', { whenIdle: true, quietMs: 1000, until: 'accepted' });
    expect(queued.ack.stage).toBe('accepted');
    await waitFor('a few ticks', () => outputs(a).filter((m) => m.data.includes('tick')).length >= 3);
    a.close(); // the connection drops
    const aNext = lastSeen(a) + 1;

    // Reconnect: hello...
    const b = await open(id);
    const host = readHost(home, id);
    expect(b.hello.generation).toBe(host.generation);
    expect(b.hello.host.generation).toBe(host.generation);
    // ...reconcile...
    const base = await b.reconcile([queued.commandId]);
    expect(base.generation).toBe(b.hello.generation);
    expect(base.unresolved).toEqual([{ commandId: queued.commandId, status: 'accepted' }]);
    expect(base.commands).toEqual([{ commandId: queued.commandId, status: 'accepted' }]);
    expect(base.terminalCursor.lastSeq).toBeGreaterThanOrEqual(aNext - 1); // it printed on while we were away
    expect(base.hostRevision).toBeGreaterThanOrEqual(b.hello.host.revision ?? 0);
    // ...subscribe from where we were: a replay, no snapshot, no gap, no repeat...
    const from = b.messages.length;
    b.raw.send({ type: 'subscribe_terminal', sinceSeq: aNext });
    const replay = await b.waitMsg<ReplayBegin>((m) => m.type === 'replay_begin', 10_000, from);
    expect(replay).toEqual({ type: 'replay_begin', fromSeq: aNext, generation: base.generation });
    await waitFor('15 more ticks', () => outputs(b, from).filter((m) => m.data.includes('tick')).length >= 15);
    const seqs = outputs(b, from).map((m) => m.seq);
    expect(seqs[0]).toBe(aNext);
    seqs.forEach((s, i) => expect(s).toBe(aNext + i));
    expect(b.messages.some((m: RunnerMessage) => m.type === 'snapshot_begin')).toBe(false);

    // 1.5 s of printing later (longer than its quiet period), the prompt is still queued, not typed.
    const still = await b.reconcile([queued.commandId]);
    expect(still.unresolved).toEqual([{ commandId: queued.commandId, status: 'accepted' }]);
    expect(still.terminalCursor.lastSeq).toBeGreaterThanOrEqual(lastSeen(b));
    expect(received(dir)).not.toContain('<when-idle>');

    // ...and resume: the prompt is in hand, so the same commandId joins it (never a new send).
    const join = b.messages.length;
    b.send({ type: 'input', data: '<when-idle>', durable: true, whenIdle: true, quietMs: 1000 }, { commandId: queued.commandId });
    expect(await b.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === queued.commandId, 10_000, join)).toMatchObject({ stage: 'accepted' });
    b.raw.send({ type: 'input', data: '\x10' }); // the program stops printing
    const applied = await b.ack(queued.commandId, 'applied', 10_000, join);
    expect(applied).toEqual({ type: 'cmd_ack', commandId: queued.commandId, stage: 'applied' });
    await waitFor('typed', () => received(dir).includes('<when-idle>'));
    expect(count(received(dir), '<when-idle>')).toBe(1);
    // It was typed only once the program had been quiet for its quiet period (its last output answered the ^P).
    const rs = reads(dir);
    const stopped = rs.find((r) => r.data === '\x10')!;
    const typed = rs.find((r) => r.data.includes('<when-idle>'))!;
    expect(typed.t - stopped.t).toBeGreaterThanOrEqual(950);

    // Once things settle the baseline is exactly the runner's: host revision, last seq seen, nothing unresolved.
    const done = await settled(b, id, [queued.commandId]);
    expect(done).toMatchObject({ generation: host.generation, unresolved: [], commands: [{ commandId: queued.commandId, status: 'applied' }] });
    expect(done.hostRevision).toBe(readHost(home, id).revision);
    expect(done.terminalCursor.lastSeq).toBe(lastSeen(b));

    // A client without a cursor gets a snapshot that ends exactly there.
    const c = await open(id);
    const cr = await c.reconcile();
    expect(cr.terminalCursor.lastSeq).toBe(done.terminalCursor.lastSeq);
    c.raw.send({ type: 'subscribe_terminal' });
    const begin = await c.waitMsg<SnapshotBegin>((m) => m.type === 'snapshot_begin');
    const end = await c.waitMsg<SnapshotEnd>((m) => m.type === 'snapshot_end');
    expect(begin).toMatchObject({ seq: done.terminalCursor.lastSeq + 1, generation: host.generation });
    expect(end.nextSeq).toBe(done.terminalCursor.lastSeq + 1);
  });

  it('after `agent-board restart` the generation is new everywhere, old envelopes get instance_mismatch, and the journal carries over', async () => {
    const id = newSession(home, recorderArgs(dir));
    await recorderReady(dir);
    const a = await open(id);
    const g1 = a.hello.generation;
    const p = await a.prompt('<before-restart>');
    expect(p.ack.stage).toBe('applied');

    const r = await cliAsync(home, ['restart', id]);
    expect(r.code).toBe(0);
    await waitFor('old connection closed', () => a.raw.closed);
    expect(a.messages.some((m) => m.type === 'bye')).toBe(true);
    await recorderReady(dir, 2);
    const host = readHost(home, id);
    expect(host.generation).not.toBe(g1);
    expect(host.status).toBe('running');
    expect(r.stdout).toContain(host.generation!);

    const d = await open(id);
    expect(d.hello.generation).toBe(host.generation);
    const stale = d.send({ type: 'input', data: '<stale-instance>', durable: true, submit: true }, { instanceId: g1 });
    const rejected = await d.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === stale);
    expect(rejected).toMatchObject({ stage: 'rejected', code: 'instance_mismatch' });
    const staleResize = d.send({ type: 'resize', cols: 60, rows: 10 }, { instanceId: g1 });
    expect(await d.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === staleResize)).toMatchObject({ stage: 'rejected', code: 'instance_mismatch' });

    const base = await settled(d, id, [p.commandId, stale], false);
    expect(base.generation).toBe(host.generation);
    expect(base.commands).toEqual([
      { commandId: p.commandId, status: 'applied' }, // from the journal the old runner wrote
      { commandId: stale, status: 'unknown' },
    ]);
    expect(base.unresolved).toEqual([]);
    expect(base.hostRevision).toBe(readHost(home, id).revision);
    d.raw.send({ type: 'status' });
    expect(await d.waitMsg((m) => m.type === 'status')).toMatchObject({ generation: host.generation, host: { generation: host.generation } });
    d.raw.send({ type: 'subscribe_terminal' });
    expect(await d.waitMsg((m) => m.type === 'snapshot_begin')).toMatchObject({ generation: host.generation });

    const children = [...receivedByChild(dir).entries()];
    expect(children).toHaveLength(2);
    const newChild = children.find(([pid]) => pid === host.childPid)!;
    expect(newChild[1]).toBe(''); // nothing of the old instance's reached the new program
    expect(count(received(dir), '<before-restart>')).toBe(1);
  });
});
