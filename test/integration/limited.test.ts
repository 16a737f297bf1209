/**
 * The `limited` state and resume-after-limit with real runners (docs/usage.md, "Carrying on after
 * a limit"): a fixture program says it hit a usage limit that resets a few seconds ahead; the
 * runner reads it off the screen (a detector of the test's own, AGENT_BOARD_TEST_LIMIT_RE), the
 * session is `limited` with its reset, and with --resume-after-limit the prompt is typed once
 * after the reset: counted on what the program received, across a runner killed and revived.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';
import { powerCut, records } from '../helpers/reboot.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { setResumeAfterLimit } from '../../src/client/session/session-resume.js';
import { listSessions } from '../../src/state/host-store.js';

const AGENT = path.join(ROOT, 'test', 'fixtures', 'programs', 'limit-agent.mjs');
const ENV = { AGENT_BOARD_TEST_LIMIT_RE: 'LIMIT REACHED, resets in (\\d+) s', AGENT_BOARD_TEST_RESUME_DELAY_MS: '300' };

let home: string;
let dir: string;
let config: string;
beforeEach(() => {
  home = makeHome();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-limit-'));
  config = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-config-'));
});
afterEach(() => {
  destroyHome(home);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(config, { recursive: true, force: true });
});

const run = (args: string[]) => cli(home, args, { env: { ...ENV, AGENT_BOARD_CONFIG_HOME: config } });
type Listed = HostRecord & { state: string };
const listed = (name: string) => (JSON.parse(run(['ls', '--json']).stdout) as Listed[]).find((s) => s.name === name);
const typed = () => (fs.existsSync(path.join(dir, 'typed.log')) ? fs.readFileSync(path.join(dir, 'typed.log'), 'utf8').split('\n').filter(Boolean) : []);
const start = (name: string, until: number, more: string[] = []) => {
  const r = run(['new', '--name', name, ...more, '--', process.execPath, AGENT, dir, String(until)]);
  if (r.code !== 0) throw new Error(`new failed: ${r.stderr}`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a usage limit as a state', () => {
  it('is limited with its reset on ls, and without --resume-after-limit nothing is typed after the reset', async () => {
    const until = Date.now() + 4000;
    start('capped', until);
    const s = await waitFor('capped limited', () => { const x = listed('capped'); return x?.state === 'limited' ? x : null; });
    expect(s.limited!.line).toBe(s.limited!.line.trim());
    expect(s.limited!.line).toMatch(/^LIMIT REACHED, resets in \d s$/);
    expect(Math.abs(Date.parse(s.limited!.resetAt!) - until)).toBeLessThan(1500);
    // A second or two left, or none on a machine slow enough to take the rest before ls runs.
    expect(run(['ls']).stdout).toMatch(/capped .* limited · (\ds|reset) /);
    const why = run(['explain', 'capped']).stdout;
    expect(why).toMatch(/^capped: limited$/m);
    expect(why).toMatch(/^limit +"LIMIT REACHED, resets in \d s" seen \d\d:\d\d:\d\d \(\ds ago\); resets \d\d:\d\d \((in \ds|passed: limited until it works again)\)$/m);
    expect(why).toMatch(/^resume +off: it waits for you/m);
    await sleep(until - Date.now() + 2500);
    expect(typed()).toEqual([]);
    // Past its reset but not working: still limited, and ls says the reset passed.
    expect(listed('capped')!.state).toBe('limited');
    expect(run(['ls']).stdout).toMatch(/limited · reset/);
  }, 20_000);

  it('with --resume-after-limit types the prompt once after the reset, and the session is itself again', async () => {
    const until = Date.now() + 3000;
    start('carry', until, ['--resume-after-limit', '--resume-prompt', 'go on please']);
    await waitFor('carry limited', () => listed('carry')?.state === 'limited');
    expect(typed()).toEqual([]);
    await waitFor('the prompt typed', () => typed().length > 0, 15_000);
    expect(Date.now()).toBeGreaterThanOrEqual(until);
    await waitFor('carry not limited', () => listed('carry')?.state !== 'limited', 10_000);
    await sleep(3000);
    expect(typed()).toEqual(['go on please']);
    const rec = records(home).get('carry')!;
    expect(rec.limited).toBeUndefined();
    expect(rec.resumeAfterLimit).toEqual({ prompt: 'go on please', perDay: 3 });
    expect(rec.limitResumes).toHaveLength(1);
  }, 30_000);

  it('a runner killed before the reset and revived types it once; killed and revived after, not again', async () => {
    const until = Date.now() + 6000;
    start('phoenix', until, ['--resume-after-limit']);
    const first = await waitFor('phoenix limited', () => records(home).get('phoenix')?.limited);
    await powerCut(home);
    const r = run(['revive', '--all']);
    expect(r.code).toBe(0);
    // The revived program says its limit again: the same limit, kept as it was.
    await waitFor('phoenix runs again', () => listed('phoenix')?.state === 'limited' && records(home).get('phoenix')!.status === 'running');
    await sleep(1500);
    expect(records(home).get('phoenix')!.limited).toEqual(first);
    await waitFor('the prompt typed', () => typed().length > 0, 20_000);
    await sleep(1000);
    await powerCut(home);
    expect(run(['revive', '--all']).code).toBe(0);
    await waitFor('phoenix runs again', () => records(home).get('phoenix')?.status === 'running');
    await sleep(3500);
    expect(typed()).toEqual(['continue']);
    expect(records(home).get('phoenix')!.limitResumes).toHaveLength(1);
  }, 45_000);

  it("turned on while limited (the board's L), the runner plans at once and types it after the reset", async () => {
    const until = Date.now() + 4000;
    start('late', until);
    await waitFor('late limited', () => listed('late')?.state === 'limited');
    const view = listSessions(home).find((x) => x.name === 'late')!;
    await setResumeAfterLimit(home, view, { prompt: 'resume now', perDay: 1 }, REAL_TIME);
    expect(records(home).get('late')!.resumeAfterLimit).toEqual({ prompt: 'resume now', perDay: 1 });
    await waitFor('the prompt typed', () => typed().length > 0, 15_000);
    await sleep(2000);
    expect(typed()).toEqual(['resume now']);
  }, 30_000);

  it('fork and restart keep the setting; config.json turns it on for a kind', async () => {
    expect(run(['new', '--name', 'keeper', '--resume-after-limit', '--resume-prompt', 'go', '--', '/bin/sh']).code).toBe(0);
    expect(run(['fork', 'keeper']).code).toBe(0);
    expect(run(['restart', 'keeper']).code).toBe(0);
    const set = { prompt: 'go', perDay: 3 };
    expect(records(home).get('keeper')!.resumeAfterLimit).toEqual(set);
    expect(records(home).get('keeper-fork-1')!.resumeAfterLimit).toEqual(set);
    const bad = run(['new', '--name', 'nope', '--resume-prompt', 'go', '--', '/bin/sh']);
    expect([bad.code, bad.stderr]).toEqual([2, 'agent-board: --resume-prompt goes with --resume-after-limit\n']);
    fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ resumeAfterLimit: { shell: { prompt: 'onwards', perDay: 5 } } }));
    expect(run(['new', '--name', 'byconfig', '--', '/bin/sh']).code).toBe(0);
    expect(records(home).get('byconfig')!.resumeAfterLimit).toEqual({ prompt: 'onwards', perDay: 5 });
  }, 30_000);
});

