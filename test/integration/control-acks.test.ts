/**
 * Staged acks per command type (docs/protocol.md, "The control lifecycle"), over a raw socket with envelopes,
 * against a real runner whose program records every byte it receives.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CmdAck } from '../../src/core/protocol/control-protocol.js';
import { encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import type { ErrorMsg, ExitMsg } from '../../src/core/protocol/runner-messages.js';
import { controlJournalFile } from '../../src/state/paths.js';
import { count, EnvClient, journalLines, newId, readHost, received, recorderArgs, recorderReady, useControlHome } from '../helpers/control.js';
import { newSession, waitFor } from '../helpers/home.js';

let home: string;
let dir: string;
const open = useControlHome((h, d) => ((home = h), (dir = d)));

async function start(...flags: string[]): Promise<string> {
  const id = newSession(home, recorderArgs(dir, ...flags));
  await recorderReady(dir);
  return id;
}
/** A legacy keystroke as a barrier: once the program has it, everything sent before was handled. */
async function barrier(c: EnvClient): Promise<void> {
  const mark = `<barrier-${newId()}>`;
  c.raw.send({ type: 'input', data: mark });
  await waitFor('barrier typed', () => received(dir).includes(mark));
}

describe('staged acks with envelopes', () => {
  it('a durable prompt is accepted once journaled (0600), applied once typed; its commandId again gets the cached final ack and nothing is typed twice', async () => {
    const id = await start();
    const c = await open(id);
    const token = '<prompt-one>';
    const from = c.messages.length;
    const cmd = c.send({ type: 'input', data: token, durable: true });
    const accepted = await c.ack(cmd, 'accepted', 10_000, from);
    const applied = await c.ack(cmd, 'applied', 10_000, from);
    expect(accepted).toEqual({ type: 'cmd_ack', commandId: cmd, stage: 'accepted' });
    expect(applied).toEqual({ type: 'cmd_ack', commandId: cmd, stage: 'applied' });
    expect(c.messages.indexOf(accepted)).toBeLessThan(c.messages.indexOf(applied));

    const lines = journalLines(home, id);
    expect(lines.map((l) => [l.kind, l.commandId])).toEqual([['accepted', cmd], ['applied', cmd]]);
    expect(lines[0]).toMatchObject({ v: 1, clientId: 'c-test', generation: c.hello.generation, command: { type: 'input', length: token.length, preview: token, submit: false, whenIdle: false } });
    expect(fs.statSync(controlJournalFile(home, id)).mode & 0o777).toBe(0o600);
    await waitFor('typed', () => received(dir).includes(token));

    // Again on the same connection (a new seq), then from another connection (its own seqs).
    const again = c.messages.length;
    c.send({ type: 'input', data: token, durable: true }, { commandId: cmd });
    expect(await c.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === cmd, 10_000, again)).toEqual({ ...applied, cached: true });
    const d = await open(id);
    d.send({ type: 'input', data: token, durable: true }, { commandId: cmd });
    expect(await d.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === cmd)).toEqual({ ...applied, cached: true });
    await barrier(d);
    expect(count(received(dir), token)).toBe(1);
    expect(journalLines(home, id)).toHaveLength(2);
    expect(d.acks(cmd)).toHaveLength(1); // only the cached one; no accepted replayed
  });

  it('the dedup of a prompt outlives the ledger: after 1,100 other commands its commandId still gets the cached ack, and it is not typed again', async () => {
    const id = await start();
    const c = await open(id);
    const p = await c.prompt('<remembered>');
    expect(p.ack.stage).toBe('applied');
    for (let i = 0; i < 1100; i++) c.send({ type: 'interrupt' }); // each remembered by commandId, pushing the prompt out of the ledger
    await c.reconcile();
    await waitFor('interrupts applied', () => c.messages.filter((m) => m.type === 'cmd_ack' && m.stage === 'applied').length === 1101);
    const from = c.messages.length;
    c.send({ type: 'input', data: '<remembered>', durable: true }, { commandId: p.commandId });
    expect(await c.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === p.commandId, 10_000, from)).toEqual({ type: 'cmd_ack', commandId: p.commandId, stage: 'applied', cached: true });
    await barrier(c);
    expect(count(received(dir), '<remembered>')).toBe(1);
    expect(count(received(dir), '\x03')).toBe(1100);
  });

  it('a keystroke with an envelope is typed as sent, with no ack and no journal line', async () => {
    const id = await start();
    const c = await open(id);
    const key = c.send({ type: 'input', data: 'k\x1b[A\r' });
    // The reconcile after it is answered only after the keystroke was handled (one connection is read in order).
    const r = await c.reconcile([key]);
    expect(r.commands).toEqual([{ commandId: key, status: 'unknown' }]);
    await waitFor('typed', () => received(dir).includes('k\x1b[A\r'));
    expect(received(dir)).toBe('k\x1b[A\r');
    expect(c.messages.some((m) => m.type === 'cmd_ack' || (m.type === 'error' && m.commandId === key))).toBe(false);
    expect(fs.existsSync(controlJournalFile(home, id))).toBe(false);
  });

  it('resize is applied with the real clamped size; two in one write: the first is superseded by the second, which is applied', async () => {
    const id = await start();
    const c = await open(id);
    c.raw.send({ type: 'subscribe_terminal' });
    await c.waitMsg((m) => m.type === 'snapshot_end');
    const big = c.send({ type: 'resize', cols: 5000, rows: 2 });
    expect(await c.ack(big, 'applied')).toEqual({ type: 'cmd_ack', commandId: big, stage: 'applied', cols: 1000, rows: 2 });
    // The program reads the PTY's size back: it is the one in the ack.
    await waitFor('program sees 1000x2', () => c.raw.outputText().includes('size:1000x2'));
    await waitFor('host.json', () => readHost(home, id).cols === 1000 && readHost(home, id).rows === 2);

    const first = c.frame({ type: 'resize', cols: 70, rows: 20 });
    const second = c.frame({ type: 'resize', cols: 0, rows: 9999 });
    const from = c.messages.length;
    c.raw.raw(encodeFrame(first) + encodeFrame(second));
    expect(await c.ack(first.commandId, 'superseded', 10_000, from)).toEqual({ type: 'cmd_ack', commandId: first.commandId, stage: 'superseded', byCommandId: second.commandId });
    expect(await c.ack(second.commandId, 'applied', 10_000, from)).toEqual({ type: 'cmd_ack', commandId: second.commandId, stage: 'applied', cols: 2, rows: 500 });
    expect(c.acks(first.commandId)).toHaveLength(1); // never applied
    await waitFor('program sees 2x500', () => c.raw.outputText().includes('size:2x500'));
    expect(c.raw.outputText()).not.toContain('size:70x20');
    // Never "observed": the runner cannot know the program finished repainting.
    await barrier(c);
    expect(c.messages.some((m) => m.type === 'cmd_ack' && m.stage === 'observed')).toBe(false);
  });

  it('keys come after the resize sent before them: in one write, the resize is applied before the prompt after it is even accepted', async () => {
    const id = await start();
    const c = await open(id);
    c.raw.send({ type: 'subscribe_terminal' });
    await c.waitMsg((m) => m.type === 'snapshot_end');
    const resize = c.frame({ type: 'resize', cols: 77, rows: 21 });
    const prompt = c.frame({ type: 'input', data: '<after-resize>', durable: true });
    const from = c.messages.length;
    c.raw.raw(encodeFrame(resize) + encodeFrame(prompt));
    const accepted = await c.ack(prompt.commandId, 'accepted', 10_000, from);
    const applied = await c.ack(resize.commandId, 'applied', 10_000, from);
    expect(applied).toMatchObject({ cols: 77, rows: 21 });
    expect(c.messages.indexOf(applied)).toBeLessThan(c.messages.indexOf(accepted));
    await waitFor('program sees 77x21 and gets the prompt', () => c.raw.outputText().includes('size:77x21') && received(dir).includes('<after-resize>'));
  });

  it('terminate is applied, then observed with how the program ended; a second terminate is idempotent', async () => {
    const id = await start();
    const c = await open(id);
    const t1 = c.send({ type: 'terminate' });
    expect(await c.ack(t1, 'applied')).toEqual({ type: 'cmd_ack', commandId: t1, stage: 'applied' });
    c.send({ type: 'terminate' }, { commandId: t1 }); // the same command again: joins it
    const t2 = c.send({ type: 'terminate' }); // another terminate: applied, the same end observed
    const exit = await c.waitMsg<ExitMsg>((m) => m.type === 'exit');
    const o1 = c.acks(t1).filter((a) => a.stage === 'observed');
    const o2 = c.acks(t2).filter((a) => a.stage === 'observed');
    expect(o1).toEqual([{ type: 'cmd_ack', commandId: t1, stage: 'observed', exitCode: exit.code, exitSignal: exit.signal }]);
    expect(o2).toEqual([{ type: 'cmd_ack', commandId: t2, stage: 'observed', exitCode: exit.code, exitSignal: exit.signal }]);
    expect(c.acks(t2)[0]).toMatchObject({ stage: 'applied' });
    expect(exit.code).toBeNull();
    expect(['SIGTERM', 'SIGHUP']).toContain(exit.signal);
    // Every observed ack comes before the exit frame, which comes before bye.
    const at = (m: unknown) => c.messages.indexOf(m as never);
    expect(Math.max(at(o1[0]), at(o2[0]))).toBeLessThan(at(exit));
    await c.waitMsg((m) => m.type === 'bye' && m.reason === 'exit');
    await waitFor('exited', () => readHost(home, id).status === 'exited');
    expect(readHost(home, id)).toMatchObject({ exitCode: exit.code, exitSignal: exit.signal });
  });

  it('detach is applied, then bye; the session runs on', async () => {
    const id = await start();
    const c = await open(id);
    const d = c.send({ type: 'detach' });
    const applied = await c.ack(d, 'applied');
    const bye = await c.waitMsg((m) => m.type === 'bye');
    expect(applied).toEqual({ type: 'cmd_ack', commandId: d, stage: 'applied' });
    expect(bye).toEqual({ type: 'bye', reason: 'detach' });
    expect(c.messages.indexOf(applied)).toBeLessThan(c.messages.indexOf(bye));
    await waitFor('closed', () => c.raw.closed);
    expect(readHost(home, id).status).toBe('running');
  });

  it('a seq not above the last one is dropped with seq_out_of_order, and the command is not executed', async () => {
    const id = await start();
    const c = await open(id);
    expect((await c.prompt('<seq-1>')).ack.stage).toBe('applied');
    c.seq = 5; // seqs may skip: they only have to increase
    expect((await c.prompt('<seq-6>')).ack.stage).toBe('applied');
    const late = c.send({ type: 'input', data: '<seq-4>', durable: true }, { seq: 4 });
    const same = c.send({ type: 'input', data: '<seq-6-again>', durable: true }, { seq: 6 });
    const key = c.send({ type: 'input', data: '<seq-3-key>' }, { seq: 3 });
    for (const cmd of [late, same, key]) {
      const e = await c.waitMsg<ErrorMsg>((m) => m.type === 'error' && m.commandId === cmd);
      expect(e).toMatchObject({ type: 'error', code: 'seq_out_of_order', commandId: cmd });
      expect(c.acks(cmd)).toEqual([]);
    }
    const r = await c.reconcile([late, same]);
    expect(r.commands).toEqual([{ commandId: late, status: 'unknown' }, { commandId: same, status: 'unknown' }]);
    await barrier(c);
    const got = received(dir);
    for (const t of ['<seq-4>', '<seq-6-again>', '<seq-3-key>']) expect(got).not.toContain(t);
    expect(got).toContain('<seq-1>');
    expect(got).toContain('<seq-6>');
    expect(journalLines(home, id).map((l) => l.commandId)).not.toContain(late);
  });

  it('fencing: another view, another instance, a read-only client and a partial envelope are refused and nothing is done', async () => {
    const id = await start();
    const c = await open(id);
    const rejected = async (cmd: string, code: string) => {
      const a = await c.waitMsg<CmdAck>((m) => m.type === 'cmd_ack' && m.commandId === cmd);
      expect(a).toMatchObject({ type: 'cmd_ack', commandId: cmd, stage: 'rejected', code });
      expect(typeof a.message).toBe('string');
    };
    await rejected(c.send({ type: 'input', data: '<other-view>', durable: true }, { viewId: 'deadbeef' }), 'view_mismatch');
    await rejected(c.send({ type: 'resize', cols: 50, rows: 10 }, { viewId: 'deadbeef' }), 'view_mismatch');
    await rejected(c.send({ type: 'input', data: '<other-instance>', durable: true }, { instanceId: 'an-older-runner' }), 'instance_mismatch');
    await rejected(c.send({ type: 'input', data: '<other-instance-key>' }, { instanceId: 'an-older-runner' }), 'instance_mismatch');

    const ro = await open(id, { readOnly: true });
    const roPrompt = ro.send({ type: 'input', data: '<ro-prompt>', durable: true });
    const roResize = ro.send({ type: 'resize', cols: 40, rows: 10 });
    const roKey = ro.send({ type: 'input', data: '<ro-key>' });
    expect(await ro.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === roPrompt)).toMatchObject({ stage: 'rejected', code: 'read_only' });
    expect(await ro.waitMsg((m) => m.type === 'cmd_ack' && m.commandId === roResize)).toMatchObject({ stage: 'rejected', code: 'read_only' });
    expect(await ro.waitMsg((m) => m.type === 'error' && m.commandId === roKey)).toMatchObject({ type: 'error', code: 'read_only', commandId: roKey });

    // Some envelope fields but not all: envelope_invalid, named by its commandId when it has one.
    c.raw.send({ type: 'input', data: '<partial>', durable: true, commandId: 'partial-1', seq: 50 });
    expect(await c.waitMsg((m) => m.type === 'error' && m.code === 'envelope_invalid')).toMatchObject({ code: 'envelope_invalid', commandId: 'partial-1' });
    c.raw.send({ ...c.frame({ type: 'input', data: '<seq-zero>' }), seq: 0 });
    await waitFor('second envelope_invalid', () => c.messages.filter((m) => m.type === 'error' && m.code === 'envelope_invalid').length === 2);

    await barrier(c);
    const got = received(dir);
    for (const t of ['<other-view>', '<other-instance>', '<other-instance-key>', '<ro-prompt>', '<ro-key>', '<partial>', '<seq-zero>']) expect(got).not.toContain(t);
    expect(journalLines(home, id)).toEqual([]);
    expect(readHost(home, id)).toMatchObject({ cols: 80, rows: 24 });
    // Rejections are not remembered: the same commandId from a proper client goes through.
    const p = await c.prompt('<after-reject>', { commandId: roPrompt });
    expect(p.ack.stage).toBe('applied');
  });
});
