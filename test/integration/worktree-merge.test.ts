import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, newSession } from '../helpers/home.js';
import { commitFile, gitIn, gitOk, lines, worktreeSession, useSandbox } from './worktree-merge-fixture.js';

/** `agent-board merge` on real repositories: each way of bringing the work home, and every refusal changing nothing. */

const sb = useSandbox();

const merge = (...args: string[]) => cli(sb.home, ['merge', ...args]);
const head = (ref = 'main') => gitIn(sb.repo, 'rev-parse', ref);

describe('merge brings a worktree session home', () => {
  it('fast-forwards the base when it has not moved: no merge commit', async () => {
    const { w } = await worktreeSession(sb, 'ff');
    const tip = commitFile(w.path, 'b.txt', 'new\n');
    const r = merge('ff');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('fast-forwarded main to agent/ff (1 commit)\n');
    expect(head()).toBe(tip);
    expect(merge('ff').stdout).toMatch(/already has everything on agent\/ff; nothing to merge/);
  });

  it("makes git's own merge commit when the base moved on", async () => {
    const { w } = await worktreeSession(sb, 'mc');
    const tip = commitFile(w.path, 'b.txt', 'theirs\n');
    const before = commitFile(sb.repo, 'c.txt', 'ours\n');
    const r = merge('mc');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('merged agent/mc into main with a merge commit (1 commit)\n');
    expect(gitIn(sb.repo, 'rev-list', '--parents', '-n', '1', 'main').split(' ').slice(1)).toEqual([before, tip]);
    expect(fs.readFileSync(path.join(sb.repo, 'b.txt'), 'utf8')).toBe('theirs\n');
    expect(gitIn(sb.repo, 'status', '--porcelain')).toBe('');
  });

  it('stops on a conflict, leaves it as git leaves it and says how to go on or back (exit 13)', async () => {
    const { w } = await worktreeSession(sb, 'cf');
    commitFile(w.path, 'a.txt', 'theirs\n');
    commitFile(sb.repo, 'a.txt', 'ours\n');
    const r = merge('cf');
    expect(r.code).toBe(13);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`merging agent/cf into main stopped on a conflict in 1 file (a.txt) in ${sb.repo}`);
    expect(r.stderr).toContain(`git -C ${sb.repo} merge --abort`);
    expect(gitOk(sb.repo, 'rev-parse', '--verify', '--quiet', 'MERGE_HEAD')).toBe(true);
    expect(gitIn(sb.repo, 'status', '--porcelain')).toBe('UU a.txt');
    gitIn(sb.repo, 'merge', '--abort');
    expect(fs.readFileSync(path.join(sb.repo, 'a.txt'), 'utf8')).toBe('ours\n');
  });

  it('--squash stages the whole branch as one change and commits nothing', async () => {
    const { w } = await worktreeSession(sb, 'sq');
    commitFile(w.path, 'b.txt', 'one\n');
    commitFile(w.path, 'c.txt', 'two\n');
    const before = head();
    const r = merge('sq', '--squash');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`squashed 2 commits of agent/sq into main, staged and not committed; commit them with: git -C ${sb.repo} commit\n`);
    expect(head()).toBe(before);
    expect(gitIn(sb.repo, 'diff', '--cached', '--name-only').split('\n')).toEqual(['b.txt', 'c.txt']);
  });

  it('--rebase replays the branch onto the base in the worktree, then fast-forwards: a straight line', async () => {
    const { w } = await worktreeSession(sb, 'rb');
    commitFile(w.path, 'b.txt', 'theirs\n');
    const moved = commitFile(sb.repo, 'c.txt', 'ours\n');
    const r = merge('rb', '--rebase');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('rebased agent/rb onto main and fast-forwarded main (1 commit)\n');
    expect(head()).toBe(head('agent/rb'));
    expect(gitIn(sb.repo, 'rev-parse', 'main~1')).toBe(moved);
    expect(gitIn(sb.repo, 'rev-list', '--merges', '--count', 'main')).toBe('0');
    expect(fs.existsSync(path.join(w.path, 'c.txt'))).toBe(true); // the worktree has the base's change now
  });

  it('--rebase on a conflict leaves the rebase in the worktree, as git leaves it (exit 13)', async () => {
    const { w } = await worktreeSession(sb, 'rbc');
    commitFile(w.path, 'a.txt', 'theirs\n');
    const main = commitFile(sb.repo, 'a.txt', 'ours\n');
    const r = merge('rbc', '--rebase');
    expect(r.code).toBe(13);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`rebasing agent/rbc onto main stopped on a conflict in 1 file (a.txt) in ${w.path}`);
    expect(r.stderr).toContain(`git -C ${w.path} rebase --abort`);
    expect(head()).toBe(main);
    gitIn(w.path, 'rebase', '--abort');
  });

  it('--into merges into another branch the main checkout is on; the base is left alone', async () => {
    const { w } = await worktreeSession(sb, 'into');
    const tip = commitFile(w.path, 'b.txt', 'new\n');
    const main = head();
    gitIn(sb.repo, 'switch', '-q', '-c', 'release');
    const r = merge('into', '--into', 'release');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('fast-forwarded release to agent/into (1 commit)\n');
    expect(head('release')).toBe(tip);
    expect(head()).toBe(main);
    expect(merge('into', '--into', 'nope').code).toBe(2);
  });
});

describe('merge refuses, changing nothing, and says what to do', () => {
  it('uncommitted work in the worktree (exit 12), with the commands to commit it', async () => {
    const { w } = await worktreeSession(sb, 'dirty');
    commitFile(w.path, 'b.txt', 'new\n');
    fs.writeFileSync(path.join(w.path, 'notes.txt'), 'not yet\n');
    const main = head();
    const r = merge('dirty');
    expect(r.code).toBe(12);
    expect(lines(r.stderr)).toEqual([`agent-board: ${w.path} has 1 uncommitted path; nothing was merged. Commit them first: git -C ${w.path} add -A && git -C ${w.path} commit`]);
    expect(head()).toBe(main);
    expect(fs.existsSync(path.join(w.path, 'notes.txt'))).toBe(true);
  });

  it('the main checkout on another branch, or with changes of its own (exit 12)', async () => {
    const { w } = await worktreeSession(sb, 'elsewhere');
    commitFile(w.path, 'b.txt', 'new\n');
    const main = head();
    gitIn(sb.repo, 'switch', '-q', '-c', 'other');
    const away = merge('elsewhere');
    expect(away.code).toBe(12);
    expect(away.stderr).toContain(`is on other, not main; nothing was merged. Switch it first: git -C ${sb.repo} switch main`);
    gitIn(sb.repo, 'switch', '-q', 'main');
    fs.writeFileSync(path.join(sb.repo, 'a.txt'), 'edited\n');
    const dirty = merge('elsewhere');
    expect(dirty.code).toBe(12);
    expect(lines(dirty.stderr)).toHaveLength(1);
    expect(dirty.stderr).toContain('has 1 uncommitted change; nothing was merged');
    expect(head()).toBe(main);
    expect(fs.readFileSync(path.join(sb.repo, 'a.txt'), 'utf8')).toBe('edited\n');
  });

  it('a session without a worktree (exit 9, as diff and pr say it), and --squash with --rebase (exit 2)', async () => {
    newSession(sb.home, ['--name', 'plain', '--cwd', sb.repo, '--', 'sleep', '60']);
    const r = merge('plain');
    expect(r.code).toBe(9);
    expect(r.stderr).toBe('agent-board: plain has no worktree of its own (start one with new --worktree); merge is for worktree sessions\n');
    await worktreeSession(sb, 'both');
    expect(merge('both', '--squash', '--rebase').code).toBe(2);
  });
});
