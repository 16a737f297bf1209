/**
 * The board over several machines, end to end in tmux: `agent-board --host alpha --host beta`
 * against the test sshd (test/helpers/two-hosts.ts: two remote homes behind two Host aliases)
 * and a local home. The host column; Enter attaches to a remote row over ssh and the detach
 * key comes back to the board; `p` sends to a remote row, and to marked rows of two machines;
 * `x` `y` kills one there; `c` on one is that machine's room, read and posted to over ssh,
 * never the local one.
 *
 *    0 | agent-board 3 sessions  ● 3 idle
 *    1 | › ● local here     shell   idle    1s  #
 *    2 |   ● alpha far      shell   idle    1s  #
 *    3 |   ● beta  far      shell   idle    1s  #
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';
import { twoHosts, type TwoHosts } from '../helpers/two-hosts.js';

const started = tmuxAvailable() ? await startSshd() : { skip: 'tmux is not installed' };
const sshd: Sshd | null = 'skip' in started ? null : started;
if (!sshd) console.warn(`\n*** board --host e2e tests NOT RUN: ${(started as { skip: string }).skip} ***\n`);

let hosts: TwoHosts;
let home: string;

beforeAll(async () => {
  if (sshd) hosts = await twoHosts(sshd);
});
beforeEach(() => {
  home = makeHome('ab-e2e-hosts-');
});
afterEach(() => {
  killAllTmux();
  destroyHome(home);
  if (!sshd) return;
  for (const h of [hosts.homes.alpha, hosts.homes.beta]) for (const s of list(h)) cli(h, ['rm', '--force', s.id]);
});
afterAll(() => {
  if (!sshd) return;
  for (const h of Object.values(hosts.homes)) destroyHome(h);
  hosts.dispose();
  sshd.stop();
});

/** The pids of `agent-board feed` running over there for home `h` (the far side of a board's link). */
function farFeeds(h: string): number[] {
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      const env = fs.readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      if (argv.includes('feed') && env.includes(`AGENT_BOARD_HOME=${h}`)) pids.push(Number(d));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

function list(h: string): Array<{ id: string; name: string; status: string; exitSignal: string | null }> {
  return JSON.parse(cli(h, ['ls', '--json']).stdout) as Array<{ id: string; name: string; status: string; exitSignal: string | null }>;
}

async function shell(h: string, name: string, marker: string): Promise<string> {
  const id = newSession(h, ['--name', name, '--', 'sh', '-c', `echo ${marker}-$((40+2)); exec sh`]);
  await waitFor(`${name}'s marker`, () => cli(h, ['peek', id]).stdout.includes(`${marker}-42`));
  return id;
}

const footer = (s: Screen) => s.lines[s.lines.length - 2] ?? '';
const isBoard = (s: Screen) => /^agent-board \d+ sessions?\b/.test(s.lines[0] ?? '') && /q quit|Esc/.test(footer(s));

/** The list's rows: marker, glyph, host, name, state. */
function rows(s: Screen): { selected: boolean; host: string; name: string; state: string }[] {
  const out = [];
  for (const line of s.lines.slice(1)) {
    const m = /^([›! ])[* ]\S (\S+) +(\S+) +\S+ +(\S+( link)?)/.exec(line);
    if (!m) break;
    out.push({ selected: m[1] === '›', host: m[2]!, name: m[3]!, state: m[4]! });
  }
  return out;
}
const selected = (s: Screen) => rows(s).find((r) => r.selected);

describe.skipIf(!sshd)('the board with two --host (tmux, test sshd)', () => {
  it('shows the host column; attaches to a remote row and back; sends to one and to marked rows of two machines; kills one; c on one is the room over there', async () => {
    await shell(home, 'here', 'local');
    const a = await shell(hosts.homes.alpha, 'far', 'alpha');
    const b = await shell(hosts.homes.beta, 'far', 'beta');
    const outer = outerShellCommand(home);
    const env = Object.entries(hosts.env).map(([k, v]) => `${k}=${v}`);
    const t = TmuxServer.start({ command: [outer[0]!, ...env, ...outer.slice(1)], cols: 120, rows: 30 });
    await t.waitForScreen('the outer prompt', (s) => s.text.includes(OUTER_PS1.trim()));
    t.typeLine('agent-board --host alpha --host beta');
    let s = await t.waitForScreen('three rows with their hosts', (x) => isBoard(x) && rows(x).length === 3, { timeoutMs: 20_000 });
    expect(rows(s).map((r) => [r.host, r.name]), showScreen(s)).toEqual([['local', 'here'], ['alpha', 'far'], ['beta', 'far']]);

    // Enter on alpha's row: its screen, over ssh; typing goes there; the detach key comes back.
    t.keys(['j']);
    await t.waitForScreen('alpha selected, its screen in the preview', (x) => isBoard(x) && selected(x)?.host === 'alpha' && x.text.includes('alpha-42'), { timeoutMs: 15_000 });
    t.keys(['Enter']);
    await t.waitForScreen('the remote screen', (x) => !isBoard(x) && x.text.includes('alpha-42'), { timeoutMs: 15_000 });
    t.typeLine('echo typed-$((6*7))');
    await t.waitForScreen('the typed command ran there', (x) => x.text.includes('typed-42'));
    expect(cli(hosts.homes.alpha, ['peek', a]).stdout).toContain('typed-42');
    t.keys(['C-\\']);
    s = await t.waitForScreen('the board again', (x) => isBoard(x) && footer(x).includes('detached from far'), { timeoutMs: 10_000 });
    expect(selected(s)?.host).toBe('alpha');

    // p on beta's row: the prompt goes to beta's session, not alpha's of the same name.
    t.keys(['j']);
    await t.waitForScreen('beta selected', (x) => isBoard(x) && selected(x)?.host === 'beta');
    t.type('p');
    await t.waitForScreen('the prompt line', (x) => footer(x) === 'Enter send  Esc cancel');
    t.type('echo prompted-$((6*8))');
    t.keys(['Enter']);
    await t.waitForScreen('sent', (x) => /applied/.test(footer(x)), { timeoutMs: 15_000 });
    await waitFor('the prompt ran on beta', () => cli(hosts.homes.beta, ['peek', b]).stdout.includes('prompted-48'));
    expect(cli(hosts.homes.alpha, ['peek', a]).stdout).not.toContain('prompted-48');

    t.keys(['Escape']);
    await t.waitForScreen('the list again', (x) => isBoard(x) && !x.text.includes('── prompt to'));
    // c on a remote row: beta's room, read and posted to over ssh; the local room of the same name is untouched.
    cli(hosts.homes.beta, ['chat', 'post', '--from', 'alice', 'hello from beta']);
    t.type('c');
    await t.waitForScreen("beta's room", (x) => x.lines.some((l) => /^── chat beta\/default \(far\)/.test(l)) && x.text.includes('alice: hello from beta'), { timeoutMs: 15_000 });
    t.type('hi over ssh');
    t.keys(['Enter']);
    await waitFor('the post on beta', () => cli(hosts.homes.beta, ['chat', 'read']).stdout.includes('hi over ssh'), 15_000);
    await t.waitForScreen('the post in the pane', (x) => x.text.includes('hi over ssh'), { timeoutMs: 10_000 });
    expect(cli(home, ['chat', 'read']).stdout).not.toContain('hi over ssh');
    expect(cli(hosts.homes.alpha, ['chat', 'read']).stdout).not.toContain('hi over ssh');
    t.keys(['Escape']);
    await t.waitForScreen('the list again', (x) => isBoard(x) && !x.text.includes('── chat'));

    // Space on alpha's row and the local one, then p: one prompt to both machines, each by its own id.
    t.keys(['k']);
    await t.waitForScreen('alpha selected', (x) => isBoard(x) && selected(x)?.host === 'alpha');
    t.type(' ');
    t.keys(['k']);
    await t.waitForScreen('local selected, alpha marked', (x) => isBoard(x) && selected(x)?.host === 'local' && /\* 1 marked/.test(x.lines[0] ?? ''));
    t.type(' ');
    t.type('p');
    await t.waitForScreen('the prompt line to both', (x) => x.lines.some((l) => /^── prompt to far, here ─+$/.test(l) || /^── prompt to here, far ─+$/.test(l)));
    t.type('echo multi-$((7*7))');
    t.keys(['Enter']);
    await t.waitForScreen('both applied', (x) => footer(x).includes('prompt sent to 2 sessions: 2 applied'), { timeoutMs: 15_000 });
    await waitFor('the prompt ran on alpha', () => cli(hosts.homes.alpha, ['peek', a]).stdout.includes('multi-49'));
    await waitFor('the prompt ran here', () => cli(home, ['peek', 'here']).stdout.includes('multi-49'));
    expect(cli(hosts.homes.beta, ['peek', b]).stdout).not.toContain('multi-49');
    t.keys(['Escape']);
    await t.waitForScreen('the list again', (x) => isBoard(x) && !x.text.includes('── prompt to'));

    // x y on beta's row: its session ends there; the row follows.
    t.keys(['j', 'j']);
    await t.waitForScreen('beta selected', (x) => isBoard(x) && selected(x)?.host === 'beta');
    t.keys(['x']);
    await t.waitForScreen('the kill question', (x) => x.text.includes('Kill far?'));
    t.keys(['y']);
    s = await t.waitForScreen('far on beta ended', (x) => isBoard(x) && /^far ended \(killed by SIG(TERM|HUP)\)/.test(footer(x)), { timeoutMs: 15_000 });
    await waitFor('exited on beta', () => list(hosts.homes.beta)[0]?.status === 'exited');
    expect(list(hosts.homes.alpha)[0]?.status).toBe('running');
    expect(list(home)[0]?.status).toBe('running');
    // Killed as asked, there as here: no failure.
    s = await t.waitForScreen('the beta row killed', (x) => rows(x).find((r) => r.host === 'beta')?.state === 'killed', { timeoutMs: 10_000 });
    expect(s.lines[0], showScreen(s)).toMatch(/■ 1 killed/);
    expect(s.lines[0]).not.toMatch(/failed/);
  });

  it('rows of a host that went unreachable are counted as `no link` in the header, not as the idle they were', { timeout: 60_000 }, async () => {
    // A server of this test's own, to take away: the shared one serves the other tests.
    const own = await startSshd();
    if ('skip' in own) throw new Error(own.skip);
    const far = await twoHosts(own);
    try {
      await shell(home, 'here', 'local');
      await shell(far.homes.alpha, 'far', 'alpha');
      const outer = outerShellCommand(home);
      const env = Object.entries(far.env).map(([k, v]) => `${k}=${v}`);
      const t = TmuxServer.start({ command: [outer[0]!, ...env, ...outer.slice(1)], cols: 120, rows: 30 });
      await t.waitForScreen('the outer prompt', (s) => s.text.includes(OUTER_PS1.trim()));
      t.typeLine('agent-board --host alpha');
      let s = await t.waitForScreen('both rows, idle', (x) => isBoard(x) && rows(x).length === 2 && /● 2 idle/.test(x.lines[0] ?? ''), { timeoutMs: 20_000 });
      // The machine goes away: its sshd stops, and the link it had ends (its far side's feed killed).
      own.stop();
      for (const pid of farFeeds(far.homes.alpha)) process.kill(pid, 'SIGKILL');
      s = await t.waitForScreen('alpha unreachable, its row no link', (x) => isBoard(x) && rows(x).find((r) => r.host === 'alpha')?.state === 'no link' && /alpha: unreachable/.test(x.lines[0] ?? ''), { timeoutMs: 30_000 });
      expect(s.lines[0], showScreen(s)).toMatch(/^agent-board 2 sessions {2}● 1 idle {2}\? 1 no link {2,}alpha: unreachable/);
      for (const id of list(far.homes.alpha).map((x) => x.id)) cli(far.homes.alpha, ['rm', '--force', id]);
    } finally {
      for (const h of Object.values(far.homes)) destroyHome(h);
      far.dispose();
    }
  });
});
