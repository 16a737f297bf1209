/**
 * Direct input not given: to a read-only client, to a client that did not ask (an old one: as
 * before, byte for byte), to one whose input fd is not the terminal; in each case the client
 * reads its keys itself, and the runner holds only the writer on the terminal.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { validateClientMessage } from '../../src/core/protocol/validate.js';
import { fdsOn, rawHeldTerminal, readSlave, ECHO_LINES } from '../helpers/direct-input.js';
import { connector, detachKey, freshHomeEachTest, runnerPidOf, runnerText } from '../helpers/direct-terminal.js';
import { newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';

let home: string;
freshHomeEachTest((h) => (home = h));

const log = (id: string) => runnerText(home, id);

/** A subscribe with direct output (and `input`, if given) from a bare client; its answer, once the frame has been written. */
async function ask(id: string, identity: Record<string, unknown>, input: Record<string, unknown> | undefined, hello: Record<string, unknown> = {}) {
  const c = await RawClient.hello(home, id, hello);
  const { inputFd: _, ...direct } = identity;
  c.send({ type: 'subscribe_terminal', direct: { ...direct, altScreen: false, cut: false, ...(input ? { input } : {}) } });
  const answer = await c.next((m) => m.type === 'direct_on' || m.type === 'direct_refused');
  await c.next((m) => m.type === 'snapshot_end');
  return { c, answer };
}

/** Keys for an in-process attach that, like process.stdin, give nothing out while paused. */
function pausingKeys() {
  const keys = new PassThrough({ encoding: 'utf8' });
  return Object.assign(keys, { type: (k: string) => keys.write(k) });
}

describe('direct input refused', () => {
  it('to a read-only client: it never asks, and a bare client that does gets direct output alone', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const t = new FakeTerminal(100, 30);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity, readOnly: true });
    await waitFor('direct output', () => log(id).includes('output goes straight to'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(log(id)).not.toContain('direct input');
    const { c, answer } = await ask(id, user.identity, { fd: 0, detachKeys: ['\x1c'] }, { readOnly: true });
    expect(answer).toEqual({ type: 'direct_on' });
    expect(log(id)).toContain('direct input from');
    expect(log(id)).toContain('refused: the client attached read-only');
    expect(fdsOn(runnerPidOf(home), user.identity.path)).toBe(1); // the writer only
    user.p.write('not-read');
    expect(await readSlave(user.slave, 'not-read')).toBe('not-read');
    c.close();
  });

  it('to a client that does not ask (an old client): direct output exactly as before, and the keys are left alone', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const { c, answer } = await ask(id, user.identity, undefined);
    expect(answer).toEqual({ type: 'direct_on' });
    expect(log(id)).not.toMatch(/input comes straight|direct input/);
    user.p.write('left\r');
    expect(await readSlave(user.slave, 'left')).toBe('left\r');
    // It types over the socket, as before; its detach hands the terminal back with no keys.
    c.send({ type: 'input', data: 'sock\r' });
    await waitFor('typed', () => user.out.includes('got:sock'));
    c.send({ type: 'detach' });
    expect(await c.next((m) => m.type === 'direct_off')).toEqual({ type: 'direct_off', altScreen: false, cut: false });
    c.close();
  });

  it('when the input fd is not the terminal: output goes direct, and the client keeps reading its keys', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const { c, answer } = await ask(id, user.identity, { fd: 99, detachKeys: ['\x1c'] });
    expect(answer).toEqual({ type: 'direct_on' });
    expect(log(id)).toContain("refused: cannot see the client's fd 99");
    c.close();
    // An attach told so (direct_on without input) reads its keys again: a paused stream would keep them.
    const t = new FakeTerminal(100, 30);
    const keys = pausingKeys();
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: keys, output: t.screen, detachKey: detachKey(), terminal: { ...user.identity, inputFd: 99 } });
    await waitFor('direct output', () => log(id).split('output goes straight to').length === 3);
    keys.type('mine\r');
    await waitFor('typed by the client', () => user.out.includes('got:mine'));
    keys.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });

  it('a second subscribe on the same connection closes the old reader before it opens a new one', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const { c, answer } = await ask(id, user.identity, { fd: 0, detachKeys: ['\x1c'] });
    expect(answer).toEqual({ type: 'direct_on', input: true });
    const pid = runnerPidOf(home);
    expect(fdsOn(pid, user.identity.path)).toBe(2);
    const { inputFd: _, ...direct } = user.identity;
    c.send({ type: 'subscribe_terminal', direct: { ...direct, altScreen: false, cut: false, input: { fd: 0, detachKeys: ['\x1c'] } } });
    await c.next((m) => m.type === 'direct_on' && m.input === true);
    expect(fdsOn(pid, user.identity.path)).toBe(2); // one writer and one reader, not two of each
    user.p.write('once\r');
    await waitFor('typed once', () => user.out.includes('got:once'));
    c.send({ type: 'detach' });
    await c.next((m) => m.type === 'bye');
    expect(user.out.split('got:once').length).toBe(2);
    expect(fdsOn(pid, user.identity.path)).toBe(0);
    c.close();
  });

  it('a malformed input request is refused with the message, not half-read', () => {
    const sub = (input: unknown) =>
      validateClientMessage({ type: 'subscribe_terminal', direct: { path: '/dev/pts/1', pid: 1, startTime: '1', fd: 1, bootId: 'b', altScreen: false, cut: false, input } });
    expect(sub({ fd: 0, detachKeys: ['\x1c'] })).toMatchObject({ ok: true, message: { direct: { input: { fd: 0, detachKeys: ['\x1c'] } } } });
    for (const bad of [null, 'x', { fd: -1, detachKeys: [] }, { fd: 0 }, { fd: 0, detachKeys: [''] }, { fd: 0, detachKeys: ['x'.repeat(33)] }, { fd: 0, detachKeys: Array(33).fill('a') }]) {
      expect(sub(bad)).toMatchObject({ ok: false, code: 'invalid_message' });
    }
  });
});
