import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorktreeInfo, WorktreeStats } from '../../src/core/worktree/worktree.js';
import { worktreeStats } from '../../src/state/worktree/worktree-count.js';
import { FakeTime } from '../helpers/fake-time.js';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { makeRepo, sh } from './worktree-new-helpers.js';

const homes: string[] = [];
const roots: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) destroyHome(h);
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function repoWithWorktree(): { repo: string; info: WorktreeInfo } {
  const { root, repo } = makeRepo({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' });
  roots.push(root);
  const dir = path.join(root, 'wt');
  sh(repo, 'worktree', 'add', '-q', '-b', 'agent/x', dir);
  return { repo, info: { repo, path: dir, branch: 'agent/x', base: 'main', baseCommit: sh(repo, 'rev-parse', 'HEAD').trim(), createdBranch: true } };
}

const counts = ({ at: _at, ...s }: WorktreeStats) => s;

/** The counts are stamped by the clock they are given. */
const time = new FakeTime(Date.UTC(2026, 0, 2, 3, 4, 5));
const STAMP = '2026-01-02T03:04:05.000Z';

describe('worktreeStats', () => {
  it('counts committed, uncommitted and untracked work against the base, and commits ahead and behind', async () => {
    const { repo, info } = repoWithWorktree();
    const first = await worktreeStats(info, time);
    expect(counts(first)).toEqual({ files: 0, added: 0, removed: 0, ahead: 0, behind: 0, uncommitted: 0 });
    expect(first.at).toBe(STAMP);
    fs.writeFileSync(path.join(info.path, 'a.txt'), 'one\nTWO\nthree\nfour\n');
    sh(info.path, 'commit', '-q', '-am', 'committed work');
    fs.writeFileSync(path.join(info.path, 'b.txt'), '');
    fs.writeFileSync(path.join(info.path, 'new.txt'), 'n1\nn2\nn3');
    fs.writeFileSync(path.join(repo, 'main-only.txt'), 'm\n');
    sh(repo, 'add', 'main-only.txt');
    sh(repo, 'commit', '-q', '-m', 'the base moves on');
    // a.txt: +2 -1 (committed); b.txt: -1 (uncommitted); new.txt: +3 (untracked).
    expect(counts(await worktreeStats(info, time))).toEqual({ files: 3, added: 5, removed: 2, ahead: 1, behind: 1, uncommitted: 2 });
  });

  it('a worktree deleted by hand is missing; a base that cannot be counted is one line of error', async () => {
    const { info } = repoWithWorktree();
    const bad = await worktreeStats({ ...info, base: 'gone', baseCommit: '0'.repeat(40) }, time);
    expect(bad.error).toMatch(/^[^\n]+$/);
    fs.rmSync(info.path, { recursive: true, force: true });
    expect(await worktreeStats(info, time)).toMatchObject({ missing: true, files: 0, at: STAMP });
  });
});

describe('a worktree session keeps its counts fresh', () => {
  it('after the agent edits, commits, and when its worktree is deleted', async () => {
    const home = makeHome();
    homes.push(home);
    const { root, repo } = makeRepo({ 'a.txt': 'a\n' });
    roots.push(root);
    expect(cli(home, ['new', '--name', 'live', '--cwd', repo, '--worktree', '--', '/bin/sh']).code).toBe(0);
    const stats = () => (JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ worktreeStats?: WorktreeStats; cwd: string }>)[0]!;
    await waitFor('the first count', () => stats().worktreeStats);
    const dir = stats().cwd;
    // Edits by the program in the session (a shell here): the next count sees them.
    expect(cli(home, ['send', 'live', 'printf "x\\ny\\n" > new.txt; echo b >> a.txt']).code).toBe(0);
    await waitFor('the edits counted', () => stats().worktreeStats?.uncommitted === 2 && stats().worktreeStats, 15_000, 200);
    expect(stats().worktreeStats).toMatchObject({ files: 2, added: 3, removed: 0, ahead: 0, uncommitted: 2 });
    expect(cli(home, ['ls']).stdout).toContain('⎇ agent/live +3 -0 2 files ↑0 ↓0 ✎2');
    expect(cli(home, ['send', 'live', 'git add -A && git commit -qm work']).code).toBe(0);
    await waitFor('the commit counted', () => stats().worktreeStats?.ahead === 1, 15_000, 200);
    expect(stats().worktreeStats).toMatchObject({ files: 2, added: 3, uncommitted: 0 });
    fs.rmSync(dir, { recursive: true, force: true });
    await waitFor('the deleted worktree seen', () => stats().worktreeStats?.missing === true, 15_000, 200);
    expect(cli(home, ['ls']).stdout).toContain('⎇ agent/live (worktree deleted)');
  }, 60_000);
});
