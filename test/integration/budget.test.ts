/**
 * Budgets with real runners (docs/usage.md, "Budgets"): a session whose record says it spent over
 * its budget has its prompts held (send's exit code and line) until --over-budget, which lets
 * exactly one through, or a budget raised in config.json; a chat wake is held, not lost, and goes
 * when the budget is raised. The spending is written into the session's record while it is
 * stopped (the runner that fills it in from transcripts is another part), then the session is
 * restarted: the runner starts from that record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { EXIT } from '../../src/state/errors.js';
import { hostFile, runnerLog } from '../../src/state/paths.js';
import { count, readHost, received, recorderArgs, recorderReady, useControlHome } from '../helpers/control.js';
import { cli, cliAsync, waitFor } from '../helpers/home.js';

let home: string;
let dir: string;
const open = useControlHome((h, d) => ((home = h), (dir = d)));

const config = () => path.join(home, 'config');
const env = (extra: Record<string, string> = {}) => ({ AGENT_BOARD_CONFIG_HOME: config(), ...extra });
const run = (args: string[], extra: Record<string, string> = {}) => cliAsync(home, args, { env: env(extra) });

function writeConfig(value: unknown): void {
  fs.mkdirSync(config(), { recursive: true });
  fs.writeFileSync(path.join(config(), 'config.json'), JSON.stringify(value));
}

const alive = (pid: number | null) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the session, writes `costUsd` into its record as its spending so far, and starts it again from that record. */
async function spent(name: string, id: string, costUsd: number, extra: Record<string, string> = {}): Promise<void> {
  expect((await run(['kill', name])).code).toBe(0);
  const pid = readHost(home, id).runnerPid;
  await waitFor('the old runner gone', () => !alive(pid));
  const rec: HostRecord = readHost(home, id);
  rec.usage = {
    tokens: { input: 1000, output: 500, cacheWrite: 0, cacheRead: 0 },
    costUsd,
    unpriced: [],
    models: ['test-model'],
    messages: 3,
    file: '/nowhere/transcript.jsonl',
    skipped: 0,
    updatedAt: new Date().toISOString(),
  };
  fs.writeFileSync(hostFile(home, id), JSON.stringify(rec));
  const r = await run(['restart', name], extra);
  expect(r.code, r.stderr).toBe(0);
  await recorderReady(dir, 2);
}

describe('budgets with real runners', () => {
  it('over its own budget: send is refused with its exit code and one line; --over-budget goes through exactly once; a budget raised in config.json lets prompts through', async () => {
    const made = cli(home, ['new', '--name', 'spender', '--budget', '$1', ...recorderArgs(dir)], { env: env() });
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    await recorderReady(dir);
    expect(readHost(home, id).budget).toEqual({ usd: 1 });
    expect((await run(['send', 'spender', 'first'])).code).toBe(0);

    await spent('spender', id, 1.2);
    expect(readHost(home, id)).toMatchObject({ budget: { usd: 1 }, usage: { costUsd: 1.2 } }); // restart keeps both
    // Its runner says so in the record: ls notes it after the state.
    await waitFor('the budget state in the record', () => readHost(home, id).budgetState?.level === 'over');
    expect(cli(home, ['ls'], { env: env() }).stdout).toMatch(/spender +shell +\S+ · over budget /);

    const refused = await run(['send', 'spender', 'second']);
    expect(refused.code).toBe(EXIT.overBudget);
    expect(refused.stderr).toBe(
      'agent-board: spender is over its budget ($1.20 of $1.00): new prompts are held until the budget is raised (config.json "budgets", or a new --budget); send --over-budget sends one anyway\n',
    );
    expect(refused.stdout).toMatch(/^not typed: "second" \(\+ Enter\) into spender; command/);

    const forced = await run(['send', 'spender', '--over-budget', 'second']);
    expect(forced.code, forced.stderr).toBe(0);
    await waitFor('the forced prompt typed', () => received(dir).includes('second\r'));
    // Only that one: the next prompt is held again.
    expect((await run(['send', 'spender', 'third'])).code).toBe(EXIT.overBudget);
    // Any client's prompt (the board's and the web page's take this path): refused with the reason.
    const c = await open(id);
    const { ack } = await c.prompt('from-a-client', { submit: true });
    expect(ack).toMatchObject({ stage: 'rejected', code: 'over_budget', message: expect.stringContaining('spender is over its budget ($1.20 of $1.00)') });
    // Keys are never held (an attach, the board's type-through): only prompts.
    c.send({ type: 'input', data: 'keys-typed' });
    await waitFor('the keys typed', () => received(dir).includes('keys-typed'));

    // Raised in config.json (by the session's name): the next prompt goes, no restart.
    writeConfig({ budgets: { sessions: { spender: { usd: 1.25 } } } });
    expect((await run(['send', 'spender', 'fourth'])).code).toBe(0);
    await waitFor('the record warned, not over', () => readHost(home, id).budgetState?.level === 'warned');
    expect(readHost(home, id).budgetState).toEqual({ level: 'warned', percent: 96, line: 'spender used 96 % of its budget ($1.20 of $1.25)' });
    await waitFor('the prompt after the raise', () => received(dir).includes('fourth\r'));
    const got = received(dir);
    expect(count(got, 'second')).toBe(1);
    expect(got).not.toContain('third');
    expect(got).not.toContain('from-a-client');

    // A fork keeps the session's own budget (its spending starts at nothing).
    const forked = await run(['fork', 'spender', '--name', 'spender2']);
    expect(forked.code, forked.stderr).toBe(0);
    const fork = readHost(home, forked.stdout.trim());
    expect(fork.budget).toEqual({ usd: 1 });
    expect(fork.usage).toBeUndefined();
  });

  it('a chat wake is held while the room is over its budget, not lost, and goes once the budget is raised in config.json', async () => {
    writeConfig({ budgets: { rooms: { r1: { usd: 2 } } } });
    const wakeEnv = { AGENT_BOARD_WAKE_IDLE_MS: '300', AGENT_BOARD_WAKE_COALESCE_MS: '100', AGENT_BOARD_WAKE_SUPPRESS_MS: '300', AGENT_BOARD_WAKE_SUBMIT_MS: '50', AGENT_BOARD_BUDGET_RECHECK_MS: '300' };
    const made = cli(home, ['new', '--name', 'sleeper', '--room', 'r1', ...recorderArgs(dir)], { env: env(wakeEnv) });
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    await recorderReady(dir);
    await spent('sleeper', id, 3, wakeEnv);

    expect(cli(home, ['chat', 'post', '--room', 'r1', '@sleeper the tests fail'], { env: env() }).code).toBe(0);
    const log = () => fs.readFileSync(runnerLog(home, id), 'utf8');
    await waitFor('the wake held', () => log().includes("wake held: sleeper's room r1 is over its budget ($3.00 of $2.00)"));
    // Held for several rechecks: nothing typed.
    await new Promise((r) => setTimeout(r, 1500));
    expect(received(dir)).not.toContain('[agent-board]');
    expect(log().match(/wake held:/g)).toHaveLength(1); // said once, not per recheck

    writeConfig({ budgets: { rooms: { r1: { usd: 10 } } } });
    await waitFor('the wake typed', () => received(dir).includes('You are sleeper in chat room r1'));
    expect(count(received(dir), '[agent-board]')).toBe(1);
  });
});
