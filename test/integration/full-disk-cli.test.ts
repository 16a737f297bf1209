/**
 * A full disk never lies (issue 28), with the real CLI and real runners on a 2 MiB tmpfs home:
 * every command that writes says in one line what it could not write and what to do (exit 15),
 * claims nothing it did not do and leaves no temporary file; a runner that cannot write its
 * heartbeat is alive (`idle · disk full`), never lost, and no advice says to kill or remove it;
 * everything comes back by itself once space is freed. A read-only home says EROFS the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { isPidAlive } from '../../src/state/host-store.js';
import { cli, destroyHome, newSession, waitFor } from '../helpers/home.js';
import { powerCut, records } from '../helpers/reboot.js';
import { SmallDisk } from '../helpers/small-disk.js';

/** The runners beat every 200 ms: a write that works again shows within a second. */
const ENV = { AGENT_BOARD_TEST_HEARTBEAT_MS: '200' };
const FULL = /the disk is full \(ENOSPC\); free some space and /;

let disk: SmallDisk;
let home: string;
beforeEach(() => {
  disk = SmallDisk.mount();
  home = disk.home;
});
afterEach(() => {
  destroyHome(home);
  disk.unmount();
});

const run = (args: string[], input?: string) => cli(home, args, { env: ENV, input });
const start = (name: string, ...cmd: string[]) => {
  const r = run(['new', '--name', name, '--', ...cmd]);
  if (r.code !== 0) throw new Error(`new ${name} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
};
const record = (name: string): HostRecord => records(home).get(name)!;
const ls = (): Array<HostRecord & { state: string }> => JSON.parse(run(['ls', '--json']).stdout) as Array<HostRecord & { state: string }>;
const row = (name: string) => run(['ls']).stdout.split('\n').find((l) => l.includes(` ${name} `)) ?? '';
const sessionFolders = () => (fs.existsSync(path.join(home, 'sessions')) ? fs.readdirSync(path.join(home, 'sessions')) : []);

/** One line on stderr, the exit code, nothing on stdout unless said. */
function expectOneLine(r: { code: number; stdout: string; stderr: string }, code: number, line: RegExp): void {
  expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code, stderr: expect.stringMatching(/^agent-board: [^\n]+\n$/) });
  expect(r.stderr).toMatch(line);
}

/** Its host.json a minute old, once the disk is full (SmallDisk.agedRecord). */
const agedRecord = (name: string): (() => void) => disk.agedRecord(record(name));

async function idle(name: string): Promise<void> {
  await waitFor(`${name} idle`, () => ls().find((s) => s.name === name)?.state === 'idle', 15_000, 100);
}

describe('every command that writes, on a full disk', () => {
  it('new: one line naming the record, exit 15, no session folder and no temporary file left; works once space is freed', () => {
    disk.fill();
    const r = run(['new', '--name', 'd2', '--', 'sleep', '60']);
    expectOneLine(r, 15, /could not write the session('s record| directory) \(.+\): the disk is full \(ENOSPC\); free some space and run it again\n$/);
    expect(r.stdout).toBe('');
    expect(sessionFolders()).toEqual([]);
    expect(disk.leftovers()).toEqual([]);
    expect(run(['ls']).stdout).toMatch(/^no sessions/);
    disk.free();
    expect(start('d2', 'sleep', '60')).toMatch(/^[0-9a-f]{8}$/);
  });

  it('new: a runner that cannot write its own record (the disk filled behind new) fails the start and is ended; nothing stays', async () => {
    disk.fill();
    disk.release(4096); // one page: new's host.json, not the runner's next one
    const r = run(['new', '--name', 'd3', '--', 'sleep', '600']);
    expectOneLine(r, 15, /could not write the session's record \(.+host\.json\): the disk is full \(ENOSPC\); free some space and run it again\n$/);
    expect(sessionFolders()).toEqual([]);
    expect(disk.leftovers()).toEqual([]);
  });

  it('rename, of a running session and of an exited one: exit 15, the old name kept (never "renamed"); works once space is freed', async () => {
    start('d1', 'sleep', '600');
    start('x1', 'true');
    await waitFor('x1 exited', () => record('x1')?.status === 'exited');
    disk.fill();
    const live = run(['rename', 'd1', 'd1renamed']);
    expectOneLine(live, 15, /could not write the session's record \(.+host\.json\): the disk is full \(ENOSPC\); free some space and rename it again\n$/);
    expect(live.stdout).toBe('');
    const done = run(['rename', 'x1', 'x1renamed']);
    expectOneLine(done, 15, /could not write the session's record \(.+host\.json\): the disk is full/);
    expect(done.stdout).toBe('');
    disk.free();
    // The runner does not write the refused name later behind the user's back.
    await new Promise((r) => setTimeout(r, 600));
    expect(ls().map((s) => s.name).sort()).toEqual(['d1', 'x1']);
    expect(run(['rename', 'd1', 'd1renamed']).stdout).toBe('renamed d1 to d1renamed\n');
    expect(run(['rename', 'x1', 'x1renamed']).code).toBe(0);
    expect(ls().map((s) => s.name).sort()).toEqual(['d1renamed', 'x1renamed']);
    expect(disk.leftovers()).toEqual([]);
  });

  it('chat post, continue and config: exit 15 naming the chat or the settings, nothing posted, no lock left; work once space is freed', () => {
    expect(run(['chat', 'post', 'before']).code).toBe(0);
    disk.fill();
    const post = run(['chat', 'post', 'during']);
    expectOneLine(post, 15, /could not write room default's chat \(.+chat\.jsonl\): the disk is full \(ENOSPC\); free some space and post it again\n$/);
    expect(post.stdout).toBe('');
    const cont = run(['chat', 'continue']);
    expectOneLine(cont, 15, /could not write room default's chat/);
    const config = run(['chat', 'config', '--max-hops', '9']);
    expectOneLine(config, 15, /could not write room default's settings \(.+room\.json\): the disk is full \(ENOSPC\); free some space and set it again\n$/);
    expect(disk.leftovers()).toEqual([]);
    disk.free();
    expect(run(['chat', 'read']).stdout).not.toContain('during');
    expect(run(['chat', 'post', 'after']).stdout).toBe('posted #2 to default\n');
    expect(run(['chat', 'config', '--max-hops', '9']).code).toBe(0);
    expect(run(['chat', 'config']).stdout).toContain('9');
  });

  it('send, fork, restart and demo: exit 15, one line, nothing typed or started; rm still removes; all work once space is freed', async () => {
    start('d1', 'sh', '-c', 'echo ready; exec cat');
    start('gone', 'true');
    await waitFor('gone exited', () => record('gone')?.status === 'exited');
    // Its last screen would be deleted by the restart, and its page freed: none, so the restart has no room.
    fs.rmSync(path.join(home, 'sessions', record('gone').id, 'final-screen.ans'));
    disk.fill();
    const send = run(['send', 'd1', 'typed-while-full']);
    expect(send.stdout).toMatch(/^not typed: "typed-while-full" \(\+ Enter\) into d1; command [0-9a-f]{8}…\n$/);
    expectOneLine(send, 15, /could not write the session's command journal \(.+control-journal\.jsonl\): the disk is full \(ENOSPC\); free some space and send it again\n$/);
    expectOneLine(run(['fork', 'd1']), 15, FULL);
    expectOneLine(run(['demo', '--no-board']), 15, /could not write room demo's settings/);
    expectOneLine(run(['restart', 'gone']), 15, /could not write the session's record \(.+\): the disk is full/);
    expect(run(['rm', 'gone']).stdout).toBe('removed gone\n'); // deleting needs no space
    expect(ls().map((s) => s.name)).toEqual(['d1']);
    expect(disk.leftovers()).toEqual([]);
    disk.free();
    expect(run(['send', 'd1', 'typed-after']).stdout).toMatch(/^applied: typed "typed-after" \(\+ Enter\) into d1; /);
    const peek = await waitFor('typed-after shown', () => {
      const out = run(['peek', 'd1']).stdout;
      return out.includes('typed-after') ? out : null;
    });
    expect(peek).not.toContain('typed-while-full');
    expect(run(['fork', 'd1']).code).toBe(0);
  });
});

describe('revive on a full disk', () => {
  it('a lost session is not revived, one line says what could not be written (exit 5: some not revived); revived once space is freed', async () => {
    start('l1', 'sleep', '600');
    await powerCut(home);
    disk.fill();
    const r = run(['revive', 'l1']);
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/^l1 not revived: could not write the session's (revive claim|record) \(.+\): the disk is full \(ENOSPC\); free some space and (revive|run) it again\n$/);
    expect(disk.leftovers()).toEqual([]);
    expect(ls().find((s) => s.name === 'l1')?.status).toBe('lost');
    disk.free();
    expect(run(['revive', 'l1']).stdout).toMatch(/^l1 revived \(shell/);
    expect(ls().find((s) => s.name === 'l1')?.status).toBe('running');
  });
});

describe('a runner that cannot write its heartbeat', () => {
  it('is alive, not lost: ls says idle · disk full, send says why it was not typed, revive and doctor leave it; all clears by itself once space is freed', async () => {
    start('d1', 'sh', '-c', 'echo ready; exec sleep 600');
    await idle('d1');
    const age = agedRecord('d1');
    disk.fill();
    age();

    // The runner's next heartbeat fails; from then on it says so to whoever asks.
    await waitFor('ls says disk full', () => / idle · disk full /.test(row('d1')), 5000, 100);
    const s = ls().find((x) => x.name === 'd1')!;
    expect(s).toMatchObject({ status: 'running', state: 'idle', cannotWrite: 'ENOSPC' });

    const send = run(['send', 'd1', 'hello']);
    expectOneLine(send, 15, /command journal .*disk is full/);
    expect(send.stderr).not.toMatch(/gone|lost|\brm\b|kill/);

    const revive = run(['revive', 'd1']);
    expect(revive).toMatchObject({ code: 0, stdout: 'd1 is running (its runner answers; its record cannot be written: disk full): nothing to do\n' });
    expect(run(['revive', '--all']).stdout).toBe('no session is lost: nothing to do\n');
    expect(run(['doctor']).stdout).toMatch(/lost: no lost sessions/);
    const explain = run(['explain', 'd1']);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/d1's runner cannot write its record \(host\.json\): the disk is full \(ENOSPC\)/);
    expect(run(['rm', 'd1']).stderr).toMatch(/d1 is still running/); // alive: rm wants --force, as for any running session

    disk.free();
    await waitFor('host.json written again', () => Date.now() - Date.parse(record('d1').heartbeatAt) < 2000);
    expect(fs.readFileSync(path.join(home, 'sessions', s.id, 'host.json'), 'utf8')).not.toContain('cannotWrite');
    expect(row('d1')).toMatch(/ idle /);
    expect(row('d1')).not.toContain('disk full');
    expect(disk.leftovers()).toEqual([]);
  });

  it('whose program exits stays until the exit is on disk (not lost meanwhile), then writes it and goes', async () => {
    start('e1', 'sleep', '600');
    const runnerPid = record('e1').runnerPid!;
    const age = agedRecord('e1');
    disk.fill();
    expect(run(['kill', 'e1']).stdout).toBe('e1 killed (SIGTERM)\n');
    age();
    await waitFor('ls says killed, disk full', () => / killed\(SIGTERM\) · disk full /.test(row('e1')), 5000, 100);
    expect(isPidAlive(runnerPid)).toBe(true);
    expect(run(['revive', 'e1']).stdout).toMatch(/^e1 has exited, it is not lost/);

    disk.free();
    await waitFor('the runner gone', () => !isPidAlive(runnerPid));
    expect(record('e1')).toMatchObject({ status: 'exited', exitSignal: 'SIGTERM' });
    expect(fs.existsSync(path.join(home, 'sessions', record('e1').id, 'final-screen.ans'))).toBe(true);
    expect(row('e1')).toMatch(/ killed\(SIGTERM\) /);
    expect(disk.leftovers()).toEqual([]);
  });

  it('that answers nothing either (stopped) is the real trouble: lost, and only then does revive say to end that runner; it comes back when resumed', async () => {
    start('w1', 'sleep', '600');
    const runnerPid = record('w1').runnerPid!;
    const rec = record('w1');
    process.kill(runnerPid, 'SIGSTOP');
    try {
      const old = new Date(Date.now() - 60_000).toISOString();
      fs.writeFileSync(path.join(home, 'sessions', rec.id, 'host.json'), JSON.stringify({ ...rec, heartbeatAt: old, updatedAt: old }));
      expect(ls().find((s) => s.name === 'w1')).toMatchObject({ status: 'lost' });
      const revive = run(['revive', 'w1']);
      expect(revive.code).toBe(5);
      expect(revive.stdout).toBe(`w1 not revived: its runner (pid ${runnerPid}) still runs but does not answer; end it first (kill ${runnerPid}), then revive it\n`);
      const send = run(['send', 'w1', 'hello']);
      expect(send.code).toBe(5);
      expect(send.stderr).toMatch(/its runner \(pid \d+\) still runs but does not answer; end it \(kill \d+\), then bring the session back with: agent-board revive w1/);
    } finally {
      process.kill(runnerPid, 'SIGCONT');
    }
    await waitFor('w1 running again', () => ls().find((s) => s.name === 'w1')?.status === 'running');
  });
});

describe('a read-only home (EROFS)', () => {
  it('every command that writes says so in one line, exit 15, and changes nothing; all work once it is writable', async () => {
    start('x1', 'true');
    await waitFor('x1 exited and its runner gone', () => record('x1')?.status === 'exited' && !isPidAlive(record('x1').runnerPid));
    expect(run(['chat', 'post', 'before']).code).toBe(0);
    disk.readOnly();
    try {
      const RO = /the file system is read-only \(EROFS\); make it writable and /;
      expectOneLine(run(['new', '--', 'sleep', '60']), 15, RO);
      expectOneLine(run(['rename', 'x1', 'x2']), 15, RO);
      expectOneLine(run(['rm', 'x1']), 15, /could not write the session folder \(.+\): the file system is read-only \(EROFS\); make it writable and remove it again\n$/);
      expectOneLine(run(['chat', 'post', 'during']), 15, RO);
      expectOneLine(run(['chat', 'config', '--max-hops', '9']), 15, RO);
      expectOneLine(run(['restart', 'x1']), 15, RO);
      expect(ls().map((s) => s.name)).toEqual(['x1']);
    } finally {
      disk.readWrite();
    }
    expect(run(['rename', 'x1', 'x2']).code).toBe(0);
    expect(run(['rm', 'x2']).code).toBe(0);
    expect(run(['chat', 'post', 'after']).code).toBe(0);
    expect(sessionFolders()).toEqual([]);
  });
});
