/**
 * Wakes with real runners: fixture agents (test/fixtures/programs/chat-agent.mjs)
 * in real PTYs, a real chat file, the real CLI posting. Timings are shortened
 * through the runners' environment (AGENT_BOARD_WAKE_*), with generous bounds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runnerLog } from '../../src/state/paths.js';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';

const AGENT = path.join(ROOT, 'test', 'fixtures', 'programs', 'chat-agent.mjs');
const CLI = `${process.execPath} ${path.join(ROOT, 'dist', 'cli', 'main.js')}`;

const WAKE_ENV = {
  AGENT_BOARD_WAKE_IDLE_MS: '1000',
  AGENT_BOARD_WAKE_COALESCE_MS: '200',
  AGENT_BOARD_WAKE_SUPPRESS_MS: '1500',
  AGENT_BOARD_WAKE_CAP_MS: '2000',
  AGENT_BOARD_WAKE_COOLDOWN_MS: '1500',
  AGENT_BOARD_WAKE_SUBMIT_MS: '100',
};

interface LogRec {
  t: number;
  event: string;
  inTurn?: boolean;
  data?: string;
  turns?: number;
  prompt?: string;
}

let home: string;
beforeEach(() => {
  home = makeHome('ab-wakes-');
});
afterEach(() => destroyHome(home));

/** Starts a fixture agent; its log (what it saw) and its session id. */
function agent(name: string, kind: string, room: string, args: string[]): { log: string; id: string } {
  const log = path.join(home, `${name}.log`);
  const r = cli(home, ['new', '--name', name, '--agent', kind, '--room', room, '--command', process.execPath, '--', AGENT, '--log', log, ...args], { env: WAKE_ENV });
  if (r.code !== 0) throw new Error(`new ${name}: ${r.stderr}`);
  return { log, id: r.stdout.trim() };
}

/**
 * How each wake went in, as the runner logged it (src/runner/wakes.ts): the cap, the idle gap, or
 * at once. Which way, not how soon: on a loaded machine every step comes late, and the way is
 * what tells the cap from the idle gap.
 */
const deliveredVia = (id: string): string[] =>
  fs.existsSync(runnerLog(home, id))
    ? [...fs.readFileSync(runnerLog(home, id), 'utf8').matchAll(/wake: (\{.*\})$/gm)].map((m) => JSON.parse(m[1]!) as { type: string; via?: string }).filter((e) => e.type === 'delivered').map((e) => e.via!)
    : [];

const readLog = (file: string): LogRec[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogRec) : [];
const inputs = (file: string) => readLog(file).filter((r) => r.event === 'input');

function post(room: string, text: string): void {
  const r = cli(home, ['chat', 'post', '--room', room, text]);
  if (r.code !== 0) throw new Error(`chat post: ${r.stderr}`);
}

describe('wakes with real runners', () => {
  it('a Claude-like agent repainting every 100 ms through its turn gets its wake by the cap, mid-turn', async () => {
    const { log, id } = agent('claudey', 'claude', 'r1', ['--mode', 'repaint', '--start-busy-ms', '20000']);
    await waitFor('the turn is on', () => readLog(log).some((r) => r.event === 'turn'));
    const t0 = Date.now();
    post('r1', '@claudey please look at the failing test');
    const first = await waitFor('the wake', () => inputs(log)[0]);
    expect(first.inTurn).toBe(true); // it never went quiet: only the cap could deliver
    expect(first.t - t0).toBeGreaterThanOrEqual(2000); // not before the cap...
    expect(deliveredVia(id)).toEqual(['cap']); // ...and by it
    const typed = inputs(log).map((r) => r.data).join('');
    expect(typed).toContain('You are claudey in chat room r1');
    expect(typed).toContain('chat read --room r1');
    expect(typed).not.toContain('failing test'); // the message itself is never typed in
    await waitFor('Enter', () => inputs(log).map((r) => r.data).join('').endsWith('\r'));
  });

  it('a Codex-like agent streaming through its turn gets nothing typed during it, and its wake once idle', async () => {
    const { log, id } = agent('codexy', 'codex', 'r2', ['--mode', 'stream', '--start-busy-ms', '5000']);
    await waitFor('the turn is on', () => readLog(log).some((r) => r.event === 'turn'));
    post('r2', '@codexy when you are done, please review');
    const idleAt = (await waitFor('the turn ends', () => readLog(log).find((r) => r.event === 'idle'), 15_000)).t;
    const first = await waitFor('the wake', () => inputs(log)[0]);
    expect(inputs(log).filter((r) => r.inTurn)).toEqual([]);
    expect(first.t - idleAt).toBeGreaterThanOrEqual(900); // a genuine idle gap (1 s here) came first
    expect(deliveredVia(id)).toEqual(['idle']); // by that gap
  });

  it('the Claude-like agent, once idle, gets its wake by the idle gap too', async () => {
    const { log, id } = agent('quiet', 'claude', 'r3', ['--mode', 'repaint']);
    await waitFor('idle', () => readLog(log).some((r) => r.event === 'idle'));
    await new Promise((r) => setTimeout(r, 1200)); // quiet for longer than the idle threshold
    post('r3', '@quiet hello');
    const first = await waitFor('the wake', () => inputs(log)[0]);
    expect(first.inTurn).toBe(false);
    // At once (the runner saw it quiet) or by the idle gap (it saw the last repaint late): never by the 2 s cap.
    expect(deliveredVia(id)).toHaveLength(1);
    expect(deliveredVia(id)).not.toContain('cap');
  });

  it('loop guard: two agents that answer each other stop at maxHops; /continue restarts them', async () => {
    expect(cli(home, ['chat', 'config', '--room', 'loop', '--max-hops', '4']).code).toBe(0);
    const common = ['--mode', 'stream', '--turn-ms', '300', '--room', 'loop', '--cli', CLI];
    const logA = agent('ping', 'codex', 'loop', [...common, '--peer', 'pong']).log;
    const logB = agent('pong', 'codex', 'loop', [...common, '--peer', 'ping']).log;
    const turns = () => readLog(logA).filter((r) => r.event === 'turn').length + readLog(logB).filter((r) => r.event === 'turn').length;
    post('loop', '@ping start the rally');
    const chat = () =>
      cli(home, ['chat', 'read', '--room', 'loop', '--json'])
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { kind: string; text: string; event?: string });
    await waitFor('the pause', () => chat().some((m) => m.event === 'pause'), 30_000);
    const agentMsgs = chat().filter((m) => m.kind === 'agent').length;
    expect(agentMsgs).toBe(4);
    const pausedTurns = turns();
    await new Promise((r) => setTimeout(r, 4000)); // well past every wake timing
    expect(turns()).toBe(pausedTurns); // no wakes while paused
    expect(chat().filter((m) => m.kind === 'agent').length).toBe(4);

    expect(cli(home, ['chat', 'continue', '--room', 'loop']).code).toBe(0);
    await waitFor('a second pause', () => chat().filter((m) => m.event === 'pause').length === 2, 30_000);
    expect(chat().some((m) => m.event === 'resume')).toBe(true);
    expect(chat().filter((m) => m.kind === 'agent').length).toBe(8);
    expect(turns()).toBeGreaterThan(pausedTurns);
  });
});
