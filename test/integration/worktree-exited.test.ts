/**
 * Once a worktree session has exited no runner counts it: `ls` counts it
 * when it reads it, and the board follows it as its runner did. What the
 * program changed on its way out, and what changed after (a commit, a merge,
 * a new file), shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { cli, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { cleanUp, counts, setup, type Counts } from './worktree-live-helpers.js';
import { sh } from './worktree-new-helpers.js';

let feed: LiveBoardFeed | null = null;
afterEach(() => {
  feed?.dispose();
  feed = null;
  cleanUp();
});

describe('a worktree session that exited', () => {
  it('shows what it left (the change it made on its way out), and what changed after, each time ls reads it', async () => {
    const { home, wt, row, truth, shown } = setup();
    await waitFor('the first count', () => row().worktreeStats);
    // The program's last act: an edit, then out, faster than any count.
    expect(cli(home, ['send', 'live', 'echo out >> a.txt; exit']).code).toBe(0);
    await waitFor('exited', () => row().status === 'exited', 15_000, 100);
    expect(shown()).toEqual(await truth());
    expect(shown()).toMatchObject({ files: 1, added: 1, uncommitted: 1 });

    // After the exit nothing runs for it: ls counts it when it reads it.
    sh(wt, 'commit', '-qam', 'committed after the exit');
    expect(shown()).toMatchObject({ files: 1, ahead: 1, uncommitted: 0 });
    const merged = cli(home, ['merge', 'live']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(shown()).toMatchObject({ files: 0, ahead: 0, behind: 0, uncommitted: 0 });
    expect(cli(home, ['ls']).stdout).toContain('⎇ agent/live +0 -0 0 files ↑0 ↓0');
    fs.writeFileSync(path.join(wt, 'late.txt'), 'l\n');
    expect(shown()).toEqual(await truth());
    expect(shown()).toMatchObject({ files: 1, uncommitted: 1 });
  }, 60_000);

  it('the board follows it after the exit: its row shows each change', async () => {
    const { home, wt, row, truth } = setup();
    await waitFor('the first count', () => row().worktreeStats);
    fs.appendFileSync(path.join(wt, 'a.txt'), 'edit\n');
    expect(cli(home, ['kill', 'live']).code).toBe(0);
    await waitFor('exited', () => row().status === 'exited', 15_000, 100);
    const f = (feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler }));
    const onBoard = () => {
      const s = f.sessions.find((x) => x.name === 'live')?.worktreeStats;
      return s && counts(s);
    };
    const follows = async (what: string, expected: Partial<Counts>) => {
      const want = await truth();
      expect(want, what).toMatchObject(expected);
      await waitFor(`${what} on the board`, () => JSON.stringify(onBoard()) === JSON.stringify(want) || null, 15_000, 50);
    };
    await follows('the edit made before the exit', { files: 1, added: 1, uncommitted: 1 });
    sh(wt, 'commit', '-qam', 'after the exit');
    await follows('a commit after the exit', { ahead: 1, uncommitted: 0 });
    expect(cli(home, ['merge', 'live']).code).toBe(0);
    await follows('agent-board merge after the exit', { files: 0, ahead: 0 });
    fs.writeFileSync(path.join(wt, 'n.txt'), 'n\n');
    await follows('a new file after the exit', { files: 1, uncommitted: 1 });
  }, 60_000);
});
