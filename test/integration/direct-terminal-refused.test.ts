/** Direct output refused (and the fall-back), across a runner restart, and the jiggle chain's settle marker. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { terminalIdentity } from '../../src/client/attach/tty-identity.js';
import { openClientTerminal } from '../../src/runner/direct/tty-check.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { connector, detachKey, freshHomeEachTest, heldTerminal, runnerPidOf, runnerText } from '../helpers/direct-terminal.js';
import { cliAsync, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';

let home: string;
freshHomeEachTest((h) => (home = h));

const log = (id: string) => runnerText(home, id);
const runnerPid = () => runnerPidOf(home);
const connect = (id: string) => connector(home, id);

describe('direct output across a runner restart', () => {
  it('the attach reconnects to the new runner, which writes to the terminal again (a CAN first, then its frame)', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; echo "gen-$$"; while IFS= read -r l; do echo "got:$l"; done']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity, reconnectDelaysMs: Array(100).fill(100) });
    await waitFor('first frame', () => user.out.includes('gen-'));
    const old = runnerPid();
    process.kill(old, 'SIGKILL');
    await waitFor('runner gone', () => !fs.existsSync(`/proc/${old}`));
    const from = user.out.length;
    expect((await cliAsync(home, ['restart', id])).code).toBe(0);
    await waitFor('the new runner writes', () => user.out.slice(from).includes('\x18') && /gen-\d+/.test(user.out.slice(from)), 10_000);
    expect(runnerPid()).not.toBe(old);
    expect(log(id).split('output goes straight to').length - 1).toBe(2);
    t.type('again\r');
    await waitFor('typed', () => user.out.includes('got:again'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(t.screen.drawn).not.toContain('gen-');
  });
});

describe('direct output and the jiggle chain', () => {
  it('tells the client when the output it wrote shows the settle marker', async () => {
    const id = newSession(home, ['--', 'sh', '-c', "read x; printf '\\033[2Jredrawn'; exec sleep 60"]);
    const user = await heldTerminal();
    const c = await RawClient.hello(home, id);
    c.send({ type: 'subscribe_terminal', direct: { ...user.identity, altScreen: false, cut: false } });
    await c.next((m) => m.type === 'snapshot_end');
    c.send({ type: 'input', data: '\r' });
    await c.next((m) => m.type === 'direct_settled');
    await waitFor('redrawn on the terminal', () => user.out.includes('redrawn'));
    expect(c.messages.some((m) => m.type === 'output')).toBe(false);
    c.close();
  });
});

describe('direct output refused', () => {
  const ask = async (id: string, direct: Record<string, unknown>) => {
    const c = await RawClient.hello(home, id);
    c.send({ type: 'subscribe_terminal', direct: { altScreen: false, cut: false, ...direct } });
    const answer = await c.next((m) => m.type === 'direct_on' || m.type === 'direct_refused');
    await c.next((m) => m.type === 'snapshot_end');
    c.close();
    return answer;
  };

  it('to a client of another machine, another process, or a path that is not its terminal', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'echo on-the-socket; exec sleep 60']);
    const user = await heldTerminal();
    const good = user.identity;
    expect(await ask(id, { ...good, bootId: '00000000-0000-0000-0000-000000000000' })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining('another machine') });
    expect(await ask(id, { ...good, startTime: String(Number(good.startTime) + 1) })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining('not the client') });
    expect(await ask(id, { ...good, pid: process.pid, startTime: processStartTime(process.pid) })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining(`is not ${good.path}`) });
    expect(await ask(id, { ...good, path: '/dev/null' })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining('not a terminal path') });
    expect(await ask(id, { ...good, path: '/tmp/../dev/pts/0' })).toMatchObject({ type: 'direct_refused' });
    expect(await ask(id, good)).toEqual({ type: 'direct_on' });
    expect(log(id).match(/refused/g)!.length).toBeGreaterThanOrEqual(5);
  });

  it('falls back to socket output silently, telling the log why', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'echo on-the-socket; exec sleep 60']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const said: string[] = [];
    const remote = { ...user.identity, bootId: 'another-machine' };
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: remote, log: (l) => said.push(l) });
    await waitFor('frame over the socket', () => t.screen.drawn.includes('on-the-socket'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(user.out).not.toContain('on-the-socket');
    expect(said.join('\n')).toContain('another machine');
  });

  it('to a terminal that is not ours (its owner checked after the identity)', async () => {
    const user = await heldTerminal();
    const mine = openClientTerminal({ ...user.identity, altScreen: false, cut: false }, { uid: process.getuid!(), bootId: bootId() });
    expect(mine.ok).toBe(true);
    if (mine.ok) fs.closeSync(mine.fd);
    const theirs = openClientTerminal({ ...user.identity, altScreen: false, cut: false }, { uid: process.getuid!() + 1, bootId: bootId() });
    expect(theirs).toEqual({ ok: false, reason: expect.stringContaining('not to us') });
  });

  it('is not asked for when the output is no terminal', () => {
    expect(terminalIdentity({ isTTY: false, fd: 1 })).toBeNull();
    expect(terminalIdentity({ isTTY: true, fd: 1 }, { AGENT_BOARD_DIRECT: '0' })).toBeNull();
  });
});
