/**
 * `agent-board demo` with real runners: the room, the two demo agents and the
 * shell, a human mention waking alice, the rally between the agents through
 * the real CLI, the loop guard pausing it and `chat continue` restarting it.
 * Wake timings and the agents' working time are shortened through the demo
 * command's environment (the runners, and so the agents, inherit it).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KICKOFF, DEMO_MAX_HOPS } from '../../src/demo/demo-setup.js';
import { isPidAlive, writeHostFile } from '../../src/state/host-store.js';
import { hostFile, sessionDir } from '../../src/state/paths.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { cli, cliAsync, destroyHome, makeHome, waitFor } from '../helpers/home.js';

const FAST = {
  AGENT_BOARD_WAKE_IDLE_MS: '800',
  AGENT_BOARD_WAKE_COALESCE_MS: '200',
  AGENT_BOARD_WAKE_SUPPRESS_MS: '1200',
  AGENT_BOARD_WAKE_CAP_MS: '2000',
  AGENT_BOARD_WAKE_COOLDOWN_MS: '1500',
  AGENT_BOARD_WAKE_SUBMIT_MS: '100',
  AGENT_BOARD_DEMO_WORK_MS: '300',
  // Posted by a human: whatever session this test itself may run in is not the demo's.
  AGENT_BOARD_SESSION: '',
};

interface Msg {
  id: number;
  from: string;
  kind: string;
  text: string;
  mentions: string[];
  event?: string;
}

interface Sess {
  id: string;
  name: string;
  room?: string;
  agent: string;
  status: string;
  command: string;
  args: string[];
}

let home: string;
beforeEach(() => {
  home = makeHome('ab-demo-');
});
afterEach(() => destroyHome(home));

const chat = (): Msg[] =>
  cli(home, ['chat', 'read', '--room', 'demo', '--json']).stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Msg);
const agentMsgs = () => chat().filter((m) => m.kind === 'agent');
const ls = (): Sess[] => JSON.parse(cli(home, ['ls', '--json']).stdout) as Sess[];

/** waitFor, with the chat and the runners' logs in the error: a stalled rally says where. */
async function waitOr<T>(what: string, fn: () => T | undefined | null | false, ms: number): Promise<T> {
  try {
    return await waitFor(what, fn, ms, 200);
  } catch (err) {
    const logs = ls().map((s) => {
      const log = path.join(home, 'sessions', s.id, 'runner.log');
      return `--- ${s.name} (${s.status}):\n${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-12).join('\n') : '(no log)'}`;
    });
    throw new Error(`${(err as Error).message}\n--- chat:\n${cli(home, ['chat', 'read', '--room', 'demo']).stdout}${logs.join('\n')}`);
  }
}

describe('agent-board demo', () => {
  it('sets up the room and three sessions, the agents answer each other until the loop guard, /continue restarts them', { timeout: 300_000 }, async () => {
    const t0 = Date.now();
    const r = cli(home, ['demo', '--no-board'], { env: FAST });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('started alice, bob, shell');
    expect(r.stdout).toContain(`posted #1 to demo: ${DEMO_KICKOFF}`);
    expect(r.stdout).toContain('end the demo (its sessions and room) with: agent-board demo --stop');
    const sessions = ls();
    expect(sessions.map((s) => s.name)).toEqual(['alice', 'bob', 'shell']);
    for (const s of sessions) {
      expect(s.room).toBe('demo');
      expect(s.status).toBe('running');
    }
    expect(sessions[0]!.args.join(' ')).toMatch(/demo-agent\.js --name alice --peer bob/);
    expect(cli(home, ['chat', 'config', '--room', 'demo']).stdout).toBe(`room demo: max hops ${DEMO_MAX_HOPS}\n`);
    const first = chat()[0]!;
    expect(first).toMatchObject({ id: 1, from: 'human', kind: 'human', mentions: ['alice'] });

    // The demo agent's screen says what it is.
    const peek = await cliAsync(home, ['peek', 'alice']);
    expect(peek.stdout).toContain('demo agent alice — a scripted stand-in, not an AI');

    // alice, woken by the human, answers mentioning bob; bob answers alice.
    const a1 = await waitOr('alice answers', () => agentMsgs()[0], 45_000);
    expect(a1).toMatchObject({ from: 'alice', mentions: ['bob'] });
    expect(a1.text).toMatch(/^@bob \(demo\) .*#1\b/);
    const b1 = await waitOr('bob answers', () => agentMsgs()[1], 45_000);
    expect(b1).toMatchObject({ from: 'bob', mentions: ['alice'] });
    expect(b1.text).toContain(`#${a1.id}`);
    const firstHopMs = Date.now() - t0;

    // The rally stops at the loop guard.
    await waitOr('the pause', () => chat().some((m) => m.event === 'pause'), 90_000);
    expect(agentMsgs()).toHaveLength(DEMO_MAX_HOPS);
    expect(agentMsgs().map((m) => m.from)).toEqual(['alice', 'bob', 'alice', 'bob', 'alice', 'bob']);
    await new Promise((res) => setTimeout(res, 3000)); // well past every wake timing
    expect(agentMsgs()).toHaveLength(DEMO_MAX_HOPS);

    // alice's screen shows the turn she took: the read, the post and its answer.
    const screen = (await cliAsync(home, ['peek', 'alice', '--scrollback', '200'])).stdout;
    expect(screen).toContain('agent-board chat read --room demo --since');
    expect(screen).toMatch(/posted #\d+ to demo/);
    expect(screen).toContain('? for shortcuts');

    // A human /continue restarts it, up to the next pause.
    expect(cli(home, ['chat', 'continue', '--room', 'demo']).code).toBe(0);
    await waitOr('the second pause', () => chat().filter((m) => m.event === 'pause').length === 2, 90_000);
    expect(chat().some((m) => m.event === 'resume')).toBe(true);
    expect(agentMsgs()).toHaveLength(2 * DEMO_MAX_HOPS);

    // Again: everything runs, so it is reused and nothing is posted.
    const before = chat().length;
    const again = cli(home, ['demo', '--no-board'], { env: FAST });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already running: alice, bob, shell');
    expect(again.stdout).not.toContain('posted #');
    expect(ls()).toHaveLength(3);
    expect(chat()).toHaveLength(before);
    console.log(`demo: first answer pair after ${firstHopMs} ms, whole test ${Date.now() - t0} ms`);
  });

  it('an exited demo agent is replaced, and the new rally resumes a paused room first', { timeout: 90_000 }, async () => {
    expect(cli(home, ['demo', '--no-board'], { env: { ...FAST, AGENT_BOARD_WAKE_IDLE_MS: '60000' } }).code).toBe(0);
    // Pause the room by hand: six agent posts from inside alice's session.
    const alice = ls().find((s) => s.name === 'alice')!;
    const id = alice.id;
    for (let i = 0; i < DEMO_MAX_HOPS; i++) expect(cli(home, ['chat', 'post', '--room', 'demo', `note ${i}`], { env: { AGENT_BOARD_SESSION: id } }).code).toBe(0);
    expect(chat().some((m) => m.event === 'pause')).toBe(true);
    expect(alice.status).toBe('running');
    expect(cli(home, ['kill', 'alice']).code).toBe(0);
    await waitFor('alice exited', () => ls().find((s) => s.name === 'alice')?.status.startsWith('exited'), 10_000, 100);

    const r = cli(home, ['demo', '--no-board'], { env: FAST });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('started alice');
    expect(r.stdout).toContain('already running: bob, shell');
    // What `demo` posted, from its /continue on: alice may already have answered the kickoff by the time we read.
    const all = chat();
    const tail = all.slice(all.findIndex((m) => m.text === '/continue')).slice(0, 3);
    expect(tail.map((m) => m.text)).toEqual(['/continue', 'resumed by human', DEMO_KICKOFF]);
    expect(ls().find((s) => s.name === 'alice')!.status).toBe('running');
    await waitOr('alice answers the new kickoff', () => agentMsgs().find((m) => m.from === 'alice' && m.id > tail[2]!.id), 45_000);
  });

  it("a lost demo session whose program's pid now names another process (reused, as after a reboot): that process is left alone", async () => {
    // Another process of this boot, in a group of its own, where alice's program once was.
    const other = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    try {
      const pid = other.pid!;
      await waitFor('its start time', () => processStartTime(pid) !== null);
      const gone = spawnSync('true').pid; // a runner pid that is no longer there
      const at = new Date().toISOString();
      const id = 'd3adbeef';
      fs.mkdirSync(sessionDir(home, id), { recursive: true, mode: 0o700 });
      writeHostFile(hostFile(home, id), {
        id, name: 'alice', room: 'demo', agent: 'demo', command: 'node', args: [], cwd: home,
        createdAt: at, updatedAt: at, heartbeatAt: at, lastOutputAt: null,
        runnerPid: gone, runnerBootId: bootId() ?? undefined, childPid: pid, childStartTime: String(Number(processStartTime(pid)) - 1000),
        generation: 'g', status: 'running', cols: 80, rows: 24, exitCode: null, exitSignal: null, scrollback: 1000,
      });
      expect(ls().find((s) => s.name === 'alice')?.status).toBe('lost');
      const r = cli(home, ['demo', '--no-board'], { env: FAST });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('started alice, bob, shell');
      // A SIGKILL would show as its exit once our loop runs again (until then it is a zombie, which isPidAlive calls gone).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(other.signalCode).toBeNull();
      expect(isPidAlive(pid)).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('demo --stop ends it whole in one line; a room the user shares is kept, and said so', async () => {
    expect(cli(home, ['demo', '--no-board'], { env: FAST }).code).toBe(0);
    expect(cli(home, ['new', '--name', 'carol', '--room', 'demo', '--', 'sh', '-c', 'sleep 30']).code).toBe(0);
    const r = cli(home, ['demo', '--stop']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('demo stopped: removed alice, bob, shell; room demo kept: carol is in it; agent-board demo starts it again\n');
    expect(ls().map((s) => s.name)).toEqual(['carol']);
    expect(fs.existsSync(path.join(home, 'rooms', 'demo', 'chat.jsonl'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(home, 'demo.json'), 'utf8'))).toMatchObject({ stoppedAt: expect.any(String) });
    expect((fs.statSync(path.join(home, 'demo.json')).mode & 0o777).toString(8)).toBe('600');
    expect(cli(home, ['rm', '--force', 'carol']).code).toBe(0);
    expect(cli(home, ['demo', '--stop']).stdout).toBe('demo stopped: no demo session was left; removed room demo and its chat; agent-board demo starts it again\n');
    expect(fs.existsSync(path.join(home, 'rooms', 'demo'))).toBe(false);
  });

  it('refuses a name taken outside the demo room, and the board without a terminal', () => {
    expect(cli(home, ['new', '--name', 'bob', '--room', 'work', '--', 'sh', '-c', 'sleep 30']).code).toBe(0);
    const r = cli(home, ['demo', '--no-board']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a session named bob already exists in room work');
    expect(ls().map((s) => s.name)).toEqual(['bob']); // nothing made

    const b = cli(home, ['demo']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('the board needs a terminal');
    // The bare board without a terminal does not start the demo either, even in an empty home.
    const empty = makeHome('ab-demo-empty-');
    try {
      expect(cli(empty, [], { env: { PATH: '/nonexistent' } }).code).toBe(2);
      expect(cli(empty, ['ls', '--json']).stdout.trim()).toBe('[]');
      expect(cli(empty, ['chat', 'rooms']).stdout).toBe('');
    } finally {
      destroyHome(empty);
    }
  });
});
