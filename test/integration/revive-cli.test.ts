/**
 * `agent-board revive` with real runners: lost sessions come back in place, one line each, and
 * the exit code says how it went; nothing runs twice (a live runner, a second revive at once);
 * a pid reused after a reboot is never taken for the runner nor signalled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviveLine, reviveSessions } from '../../src/client/session/session-revive.js';
import { isPidAlive, listSessions, writeHostFile } from '../../src/state/host-store.js';
import { hostFile } from '../../src/state/paths.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { cli, destroyHome, makeHome, newSession, waitFor, waitForPeekLines } from '../helpers/home.js';
import { powerCut, records } from '../helpers/reboot.js';

let home: string;
let config: string;
const others: ChildProcess[] = [];
beforeEach(() => {
  home = makeHome();
  config = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-config-'));
});
afterEach(() => {
  destroyHome(home);
  fs.rmSync(config, { recursive: true, force: true });
  for (const p of others.splice(0)) p.kill('SIGKILL');
});

const run = (args: string[]) => cli(home, args, { env: { AGENT_BOARD_CONFIG_HOME: config } });
const lines = (out: string) => out.trim().split('\n');
const status = (name: string) => (JSON.parse(run(['ls', '--json']).stdout) as { name: string; status: string }[]).find((s) => s.name === name)?.status;

describe('agent-board revive', () => {
  it('revives the lost ones in place, one line each; a gone folder is one line and exit 5, the others revived', async () => {
    const gone = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-gone-'));
    newSession(home, ['--name', 'a', '--', 'sh', '-c', 'echo "a in $PWD"; exec sleep 600']);
    newSession(home, ['--name', 'b', '--room', 'r2', '--', 'sh', '-c', 'echo b-up; exec sleep 600']);
    newSession(home, ['--name', 'c', '--cwd', gone, '--', 'sleep', '600']);
    const before = records(home);
    expect(before.get('a')).toMatchObject({ runnerBootId: expect.stringMatching(/-/), runnerStartTime: expect.stringMatching(/^\d+$/) });
    await powerCut(home);
    fs.rmSync(gone, { recursive: true });
    expect(['a', 'b', 'c'].map(status)).toEqual(['lost', 'lost', 'lost']);

    const r = run(['revive', '--all']);
    expect(r.code).toBe(5);
    expect(lines(r.stdout)).toEqual([
      `a revived (shell, started fresh in ${process.cwd()})`,
      `b revived (shell, started fresh in ${process.cwd()})`,
      `c not revived: its folder ${gone} is gone (rm it with: agent-board rm c)`,
    ]);
    const after = records(home);
    for (const n of ['a', 'b']) {
      expect(after.get(n)).toMatchObject({ id: before.get(n)!.id, room: before.get(n)!.room, cwd: before.get(n)!.cwd, agent: 'shell', status: 'running' });
      expect(after.get(n)!.generation).not.toBe(before.get(n)!.generation);
    }
    expect(after.get('b')!.room).toBe('r2');
    await waitForPeekLines(home, 'b', 'its program again', (l) => l.includes('b-up'));
    // Once more: the running ones are left alone.
    const again = run(['revive', 'a', 'b']);
    expect(again.code).toBe(0);
    expect(lines(again.stdout)).toEqual(['a is running: nothing to do', 'b is running: nothing to do']);
    expect(records(home).get('a')!.generation).toBe(after.get('a')!.generation);
  });

  it('usage: no session and no --all is 2, an unknown one 3 (and nothing is revived), an exited one is left and said so', async () => {
    newSession(home, ['--name', 'short', '--', 'sh', '-c', 'exit 4']);
    newSession(home, ['--name', 'gone', '--', 'sleep', '600']);
    await waitFor('short exited', () => status('short') === 'exited');
    await powerCut(home);
    expect(run(['revive']).code).toBe(2);
    const unknown = run(['revive', 'gone', 'nope']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/no session "nope"/);
    expect(status('gone')).toBe('lost');
    const exited = run(['revive', 'short']);
    expect(exited.code).toBe(0);
    expect(exited.stdout).toMatch(/^short has exited, it is not lost: revive leaves it \(start it again with: agent-board restart short\)\n$/);
    const all = run(['revive', '--all']);
    expect(all.code).toBe(0);
    expect(lines(all.stdout)).toEqual(['gone revived (shell, started fresh in ' + process.cwd() + ')', '1 exited session left as it is (restart is for them: agent-board restart <session>)']);
    expect(run(['revive', '--all']).stdout).toMatch(/^no session is lost: nothing to do/);
  });

  it('--if-configured revives all only with autoRevive in config.json, else says so in one line', async () => {
    newSession(home, ['--name', 'x', '--', 'sleep', '600']);
    await powerCut(home);
    const off = run(['revive', '--if-configured']);
    expect(off.code).toBe(0);
    expect(lines(off.stdout)).toEqual([`autoRevive is off in ${path.join(config, 'config.json')}: nothing revived`]);
    expect(status('x')).toBe('lost');
    fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ autoRevive: true }));
    const on = run(['revive', '--if-configured']);
    expect(on.code).toBe(0);
    expect(lines(on.stdout)).toEqual([`x revived (shell, started fresh in ${process.cwd()})`]);
    expect(status('x')).toBe('running');
  });

  it('after a reboot, pids in the records that now name other processes: lost, revived, and those processes never signalled', async () => {
    newSession(home, ['--name', 'p', '--', 'sleep', '600']);
    await powerCut(home);
    // Two unrelated processes that got the old pids (a process group of their own, as a program's).
    const stranger = () => {
      const p = spawn('sleep', ['60'], { stdio: 'ignore', detached: true });
      others.push(p);
      return p.pid!;
    };
    const [runnerPid, childPid] = [stranger(), stranger()];
    const rec = records(home).get('p')!;
    writeHostFile(hostFile(home, rec.id), { ...rec, runnerPid, childPid, runnerBootId: '00000000-0000-4000-8000-000000000000' });
    expect(status('p')).toBe('lost');
    // kill of a lost session signals its left-over program only if it is still that program.
    const k = run(['kill', 'p']);
    expect(k.code).toBe(5);
    expect(k.stderr).toMatch(/p is lost and its program is not running/);
    const r = run(['revive', 'p']);
    expect(r.stdout).toMatch(/^p revived/);
    expect(r.code).toBe(0);
    expect(isPidAlive(runnerPid) && isPidAlive(childPid)).toBe(true);
    expect(records(home).get('p')!.runnerPid).not.toBe(runnerPid);
    expect(status('p')).toBe('running');
  });

  it('a session whose runner is on its way (new or a restart just wrote it, no pid yet) is left to it', async () => {
    newSession(home, ['--name', 'n', '--', 'sleep', '600']);
    await powerCut(home);
    const rec = records(home).get('n')!;
    const now = new Date().toISOString();
    writeHostFile(hostFile(home, rec.id), { ...rec, status: 'starting', runnerPid: null, childPid: null, updatedAt: now, heartbeatAt: now });
    const [o] = await reviveSessions(home, listSessions(home), REAL_TIME);
    expect(reviveLine(o!)).toBe('n is starting: nothing to do');
    expect(records(home).get('n')!.runnerPid).toBeNull();
  });

  it('two revives at once start one runner per session; the other says it is running or being revived', async () => {
    for (const n of ['s1', 's2', 's3']) newSession(home, ['--name', n, '--', 'sleep', '600']);
    await powerCut(home);
    // In one process, so both look at the records before either has started a runner.
    const lost = listSessions(home);
    const [one, two] = await Promise.all([reviveSessions(home, lost, REAL_TIME), reviveSessions(home, lost, REAL_TIME)]);
    const said = [...one, ...two].map(reviveLine);
    for (const n of ['s1', 's2', 's3']) expect(said.filter((l) => l.startsWith(`${n} revived`))).toHaveLength(1);
    expect(said.filter((l) => /is being revived by another revive|is running/.test(l))).toHaveLength(3);
    // One runner each: the runner log names one start per revive.
    for (const r of records(home).values()) {
      const log = fs.readFileSync(path.join(home, 'sessions', r.id, 'runner.log'), 'utf8');
      expect(log.match(/serving/g)).toHaveLength(2); // the first start, and one revive
      expect(isPidAlive(r.runnerPid)).toBe(true);
    }
  });
});
