import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { socketPath } from '../../src/state/paths.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('the state home is private', () => {
  it('directories are 0700, host.json and the socket 0600', () => {
    const id = newSession(home, ['--', 'sleep', '60']);
    expect(mode(home)).toBe(0o700);
    expect(mode(path.join(home, 'sessions'))).toBe(0o700);
    expect(mode(path.join(home, 'sessions', id))).toBe(0o700);
    expect(mode(path.join(home, 'sessions', id, 'host.json'))).toBe(0o600);
    expect(mode(socketPath(home, id))).toBe(0o600);
  });

  it('a home others can write to is refused with one clear line', () => {
    fs.chmodSync(home, 0o777);
    const r = cli(home, ['ls']);
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/other users can write to it.*chmod 700/);
  });

  it.runIf(process.getuid?.() === 0)('a home owned by another user is refused', () => {
    fs.chownSync(home, 65534, 65534);
    const r = cli(home, ['new', '--', 'true']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/belongs to uid 65534/);
  });

  it('a home of ours that others can only read is tightened to 0700', () => {
    fs.chmodSync(home, 0o755);
    expect(cli(home, ['ls']).code).toBe(0);
    expect(mode(home)).toBe(0o700);
  });

  it('with a 150-character home path the socket moves to a short private runtime folder and works', async () => {
    const deep = path.join(home, 'd'.repeat(150 - home.length - 1));
    expect(deep.length).toBe(150);
    const id = newSession(deep, ['--', 'sh', '-c', 'echo deep-ok; exec sleep 60']);
    const sock = socketPath(deep, id);
    expect(sock.startsWith(deep)).toBe(false);
    expect(Buffer.byteLength(sock)).toBeLessThanOrEqual(107);
    expect(mode(path.dirname(sock))).toBe(0o700);
    expect(mode(sock)).toBe(0o600);
    await waitFor('peek', () => cli(deep, ['peek', id]).stdout.includes('deep-ok'));
    destroyHome(deep);
  });
});

describe('a runner outlives whoever started it', () => {
  it('is its own session leader, ignores SIGHUP, and keeps serving', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; while IFS= read -r l; do echo "echo:$l"; done']);
    const rec = JSON.parse(cli(home, ['ls', '--json']).stdout)[0] as { runnerPid: number };
    const stat = fs.readFileSync(`/proc/${rec.runnerPid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(fields[3])).toBe(rec.runnerPid); // session id == pid: setsid, no controlling terminal
    expect(Number(fields[4])).toBe(0); // tty_nr: no controlling terminal
    process.kill(rec.runnerPid, 'SIGHUP');
    await new Promise((r) => setTimeout(r, 200));
    const c = await RawClient.hello(home, id);
    c.send({ type: 'subscribe_terminal' });
    await c.next((m) => m.type === 'snapshot_end');
    c.send({ type: 'input', data: 'after-hup\n' });
    await waitFor('echo', () => c.outputText().includes('echo:after-hup'));
    c.close();
    expect(JSON.parse(cli(home, ['ls', '--json']).stdout)[0].status).toBe('running');
  });
});
