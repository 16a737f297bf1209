/**
 * The board's feed over several machines against a real sshd (test/helpers/two-hosts.ts): a
 * local home and two remote ones (`alpha`, `beta`: one sshd, two Host aliases whose SetEnv
 * chooses the home), `down` (a closed port) and `old` (an agent-board without `feed`). Every
 * remote row comes through ssh: `agent-board feed --json` there, the preview through
 * `agent-board bridge`.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { LiveChatFeed } from '../../src/client/feed/chat-feed.js';
import { HostsChatFeed } from '../../src/client/remote/remote-chat.js';
import { MultiHostFeed } from '../../src/client/remote/remote-feed.js';
import { roomOf } from '../../src/core/chat/chat.js';
import type { SessionView } from '../../src/state/host-store.js';
import { reviveLine } from '../../src/client/session/session-revive.js';
import { createBoardActions } from '../../src/client/board-actions/board-actions.js';
import { revivable } from '../../src/ui/revive-commands.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { powerCut } from '../helpers/reboot.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { twoHosts, type TwoHosts } from '../helpers/two-hosts.js';

const started = await startSshd();
const sshd: Sshd | null = 'skip' in started ? null : started;
if (!sshd) console.warn(`\n*** remote-board tests NOT RUN: ${(started as { skip: string }).skip} ***\n`);

let hosts: TwoHosts;
let localHome: string;
let feed: MultiHostFeed | null = null;
const saved = { opts: process.env.AGENT_BOARD_SSH_OPTS, cmd: process.env.AGENT_BOARD_REMOTE_COMMAND };

beforeAll(async () => {
  if (!sshd) return;
  hosts = await twoHosts(sshd);
  Object.assign(process.env, hosts.env); // the ssh this process starts reads them
});
beforeEach(() => {
  localHome = makeHome('ab-board-local-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(localHome);
  if (!sshd) return;
  for (const h of Object.values(hosts.homes)) for (const s of list(h)) cli(h, ['rm', '--force', s.id]);
});
afterAll(() => {
  if (!sshd) return;
  for (const h of Object.values(hosts.homes)) destroyHome(h);
  hosts.dispose();
  sshd.stop();
  for (const [k, v] of [['AGENT_BOARD_SSH_OPTS', saved.opts], ['AGENT_BOARD_REMOTE_COMMAND', saved.cmd]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function list(home: string): Array<{ id: string; name: string; status: string }> {
  return JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ id: string; name: string; status: string }>;
}

/** A shell session whose first output is a marker the command line does not show. */
async function shell(home: string, name: string, marker: string): Promise<string> {
  const id = newSession(home, ['--name', name, '--', 'sh', '-c', `echo ${marker}-$((40+2)); exec sh`]);
  await waitFor(`${name}'s marker`, () => cli(home, ['peek', id]).stdout.includes(`${marker}-42`));
  return id;
}

function board(names: string[]): MultiHostFeed {
  const local = new LiveBoardFeed(localHome, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler });
  feed = new MultiHostFeed(local, names, { home: localHome, time: REAL_TIME });
  return feed;
}

const row = (f: MultiHostFeed, host: string | undefined, name: string): SessionView | undefined => f.sessions.find((s) => s.host === host && s.name === name);

/** Our ssh clients (not what they run on the far side) running `feed` for `host`. */
function feedSsh(host: string): number[] {
  const pids: number[] = [];
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (argv[0] === 'ssh' && argv.includes(host) && argv.some((a) => a.endsWith(' feed --json'))) pids.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe.skipIf(!sshd)('one board, several machines, over ssh', () => {
  it('lists local and both remote homes with their hosts; a remote change arrives by itself; an unreachable host is one line and the local rows still work', async () => {
    const here = await shell(localHome, 'here', 'local');
    const a = await shell(hosts.homes.alpha, 'far', 'alpha');
    const b = await shell(hosts.homes.beta, 'far', 'beta');
    const f = board(['alpha', 'beta', 'down']);
    // The local rows are there at once: nothing remote holds the board's start.
    expect(f.sessions.map((s) => [s.host, s.id])).toEqual([[undefined, here]]);
    await waitFor('all three homes', () => f.sessions.length === 3, 15_000);
    expect(f.sessions.map((s) => [s.host ?? 'local', s.name, s.id])).toEqual([
      ['local', 'here', here],
      ['alpha', 'far', `alpha/${a}`],
      ['beta', 'far', `beta/${b}`],
    ]);
    expect(f.sessions.map((s) => s.remoteId)).toEqual([undefined, a, b]);
    await waitFor('the down host line', () => f.hostLines.length === 1, 15_000);
    expect(f.hostLines[0]).toMatch(/^down: unreachable \(ssh: [^)]*refused[^)]*\); retrying (in \d+ s|now)$/);

    // A state change there (a command typed into beta's session) reaches the row without anyone asking.
    cli(hosts.homes.beta, ['send', b, "printf 'changed-%s ' $((6*7))"]); // the marker and the prompt: the screen's last line
    await waitFor('beta row shows the new last line', () => row(f, 'beta', 'far')?.previewLine?.includes('changed-42'), 10_000);
    expect(row(f, 'alpha', 'far')?.previewLine).not.toContain('changed-42');
    // The local rows follow their runners as ever.
    cli(localHome, ['send', here, "printf 'here-%s ' $((6*8))"]);
    await waitFor('local row', () => row(f, undefined, 'here')?.previewLine?.includes('here-48'), 10_000);
    expect(f.hostLines).toHaveLength(1);
    expect(f.hostLines[0]).toMatch(/^down: /);
  });

  it('a remote row previews its screen (its last one once it ended), and its actions go to that machine by its id there', async () => {
    const a = await shell(hosts.homes.alpha, 'far', 'alpha');
    const f = board(['alpha']);
    const r = await waitFor('alpha row', () => row(f, 'alpha', 'far'), 15_000);
    f.setPreview(r.id);
    await waitFor('the remote screen', () => f.preview?.lines.some((l) => l.includes('alpha-42')), 15_000);
    const actions = createBoardActions(localHome, REAL_TIME);
    const sent = await actions.sendPrompt(r, 'echo prompted-$((6*7))');
    expect(sent.status).toBe('applied');
    await waitFor('the prompt ran there', () => cli(hosts.homes.alpha, ['peek', a]).stdout.includes('prompted-42'));
    await expect(actions.diff(r)).rejects.toThrow(/on alpha is not done from the board; there: ssh alpha agent-board diff/);
    const killed = await actions.kill(r);
    expect(killed.kind).toBe('exit');
    await waitFor('exited there', () => list(hosts.homes.alpha)[0]?.status === 'exited');
    await waitFor('exited on the board', () => row(f, 'alpha', 'far')?.status === 'exited', 10_000);
    // Its last screen, from peek --ansi there (a new preview: nothing mirrored live to keep).
    f.setPreview(null);
    f.setPreview(r.id);
    await waitFor('the final screen', () => f.preview?.final === true && f.preview.lines.some((l) => l.includes('prompted-42')), 15_000);
  });

  it('a killed ssh link reconnects: the rows go stale, then come back live', async () => {
    await shell(hosts.homes.alpha, 'far', 'alpha');
    const f = board(['alpha']);
    await waitFor('alpha row', () => row(f, 'alpha', 'far') && !row(f, 'alpha', 'far')!.stale, 15_000);
    const pids = await waitFor('the feed ssh', () => feedSsh('alpha').length > 0 && feedSsh('alpha'));
    for (const p of pids) process.kill(p, 'SIGKILL');
    await waitFor('stale rows', () => row(f, 'alpha', 'far')?.stale === true, 5000, 5);
    expect(f.hostLines[0]).toMatch(/^alpha: unreachable \(the link was cut\); retrying/);
    await waitFor('live again', () => row(f, 'alpha', 'far')?.stale === undefined, 15_000);
    expect(f.hostLines).toEqual([]);
    expect(feedSsh('alpha').filter((p) => !pids.includes(p))).toHaveLength(1);
  });

  it("a room paused over there is among the board's paused rooms as host/room, and its pane says so, until a human resumes it", async () => {
    const a = await shell(hosts.homes.alpha, 'far', 'alpha');
    const f = board(['alpha']);
    const chat = new HostsChatFeed(new LiveChatFeed(localHome, { scheduler: REAL_TIME.scheduler }), REAL_TIME.scheduler, f);
    try {
      await waitFor('alpha row', () => row(f, 'alpha', 'far'), 15_000);
      chat.watchRooms(f.sessions.map(roomOf));
      cli(hosts.homes.alpha, ['chat', 'config', '--max-hops', '4']);
      for (let i = 0; i < 4; i++) cli(hosts.homes.alpha, ['chat', 'post', `ping ${i}`], { env: { AGENT_BOARD_SESSION: a } });
      await waitFor('the paused room', () => chat.pausedRooms.includes('alpha/default'), 10_000);
      expect(chat.pausedRooms).toEqual(['alpha/default']);
      chat.openRoom('alpha/default');
      await waitFor('the pane, paused', () => chat.chat?.paused === true && chat.chat.records.some((r) => r.text === 'ping 3'), 10_000);
      cli(hosts.homes.alpha, ['chat', 'continue', '--from', 'bob']);
      await waitFor('resumed', () => chat.pausedRooms.length === 0 && chat.chat?.paused === false, 10_000);
    } finally {
      chat.dispose();
    }
  });

  it("R's revive of a lost row of another machine runs there: one line per row, and the row turns live", async () => {
    const a = await shell(hosts.homes.alpha, 'gone', 'alpha');
    await powerCut(hosts.homes.alpha);
    const f = board(['alpha']);
    await waitFor('the lost row', () => row(f, 'alpha', 'gone')?.status === 'lost', 15_000);
    expect(revivable(row(f, 'alpha', 'gone')!)).toBe(true);
    const heard: string[] = [];
    const outcomes = await createBoardActions(localHome, REAL_TIME, process.env, ['alpha']).revive([row(f, 'alpha', 'gone')!], (o) => heard.push(reviveLine(o)));
    expect(outcomes.map(reviveLine)).toEqual([expect.stringMatching(/^alpha: gone revived \(shell, started fresh in /)]);
    expect(heard).toEqual(outcomes.map(reviveLine));
    expect(list(hosts.homes.alpha).find((s) => s.id === a)?.status).toBe('running');
    await waitFor('the row live again', () => row(f, 'alpha', 'gone')?.status === 'running', 15_000);
    // Nothing of this machine's was touched: its home has no session at all.
    expect(list(localHome)).toEqual([]);
  });

  it('an agent-board there without feed is asked ls --json instead', async () => {
    await shell(hosts.homes.old, 'ancient', 'old');
    const f = board(['old']);
    const r = await waitFor('old row', () => row(f, 'old', 'ancient'), 15_000);
    expect(r.stale).toBeUndefined();
    expect(f.hostLines).toEqual([]);
  });
});

describe("the board's --host on the command line", () => {
  it('takes --host bare and after board; a bad one is a usage error in one line; any other word is still refused', () => {
    for (const args of [['--host', '-oProxyCommand=x'], ['board', '--host', '-oProxyCommand=x'], ['--host=-oProxyCommand=x']]) {
      const r = cli(localHome, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe('agent-board: invalid --host "-oProxyCommand=x": use host or user@host\n');
    }
    expect(cli(localHome, ['--host']).stderr).toBe('agent-board: option "--host <[user@]host>" argument missing; see: agent-board --help\n');
    expect(cli(localHome, ['--bogus']).stderr).toBe('agent-board: unknown option "--bogus"; see: agent-board --help\n');
    expect(cli(localHome, ['--host', 'box', 'extra']).stderr).toBe('agent-board: unknown command "extra"; see: agent-board --help\n');
    // Good hosts: only the terminal is missing (a script gets this line, not a board).
    expect(cli(localHome, ['--host', 'box', '--host', 'me@other']).stderr).toBe('agent-board: the board needs a terminal; from a script use: agent-board ls\n');
  });
});
