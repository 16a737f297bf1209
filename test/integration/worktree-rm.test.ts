import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeSession } from '../../src/client/session/session-actions.js';
import { isPidAlive, listSessions } from '../../src/state/host-store.js';
import { cli } from '../helpers/home.js';
import { commitFile, gitIn, gitOk, lines, makeSandbox, readHost, removeSandbox, worktreeSession, useSandbox } from './worktree-merge-fixture.js';
import { REAL_TIME } from '../helpers/real-time.js';

/** rm of a worktree session on real repositories: nothing is lost unless --discard says so; kill and restart never touch it. */

const sb = useSandbox();

const rm = (...args: string[]) => cli(sb.home, ['rm', ...args]);
const hasBranch = (b: string) => gitOk(sb.repo, 'rev-parse', '--verify', '--quiet', `refs/heads/${b}`);
const worktrees = () => gitIn(sb.repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length;
const sessions = () => listSessions(sb.home).map((s) => s.name);

describe('rm keeps work that is not home yet', () => {
  it('uncommitted changes: the session goes, the worktree and branch stay, one line says why and how to delete them', async () => {
    const { w } = await worktreeSession(sb, 'dirty');
    fs.writeFileSync(path.join(w.path, 'notes.txt'), 'mine\n');
    const r = rm('dirty');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `removed dirty; kept worktree ${w.path} and branch agent/dirty (1 uncommitted path); rm --discard deletes them with the session, or now: git -C ${sb.repo} worktree remove --force ${w.path} && git -C ${sb.repo} branch -D agent/dirty`,
    ]);
    expect(sessions()).toEqual([]);
    expect(fs.readFileSync(path.join(w.path, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(hasBranch('agent/dirty')).toBe(true);
  });

  it('commits not merged into the base: kept, with their count', async () => {
    const { w } = await worktreeSession(sb, 'ahead');
    commitFile(w.path, 'b.txt', 'one\n');
    commitFile(w.path, 'c.txt', 'two\n');
    const r = rm('ahead');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kept worktree');
    expect(r.stdout).toContain('(2 commits not merged into main)');
    expect(fs.existsSync(w.path)).toBe(true);
    expect(hasBranch('agent/ahead')).toBe(true);
  });

  it('rm --force of a running session ends it and still keeps the work', async () => {
    const { id, w } = await worktreeSession(sb, 'live', { running: true });
    const runner = readHost(sb.home, id);
    fs.writeFileSync(path.join(w.path, 'wip.txt'), 'half\n');
    expect(rm('live').code).toBe(1); // running, without --force
    const r = rm('live', '--force');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kept worktree');
    expect(isPidAlive(runner.runnerPid)).toBe(false);
    expect(fs.existsSync(path.join(w.path, 'wip.txt'))).toBe(true);
  });

  it("the board's d (removeSession) keeps work too", async () => {
    const { w } = await worktreeSession(sb, 'board');
    commitFile(w.path, 'b.txt', 'one\n');
    await removeSession(sb.home, listSessions(sb.home)[0]!, REAL_TIME);
    expect(sessions()).toEqual([]);
    expect(fs.existsSync(w.path)).toBe(true);
    expect(hasBranch('agent/board')).toBe(true);
  });
});

describe('rm deletes what is safely home', () => {
  it('a merged, clean worktree and its branch go with the session', async () => {
    const { w } = await worktreeSession(sb, 'done');
    commitFile(w.path, 'b.txt', 'one\n');
    expect(cli(sb.home, ['merge', 'done']).code).toBe(0);
    const r = rm('done');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([`removed done; deleted worktree ${w.path}, deleted branch agent/done (merged into main, nothing uncommitted)`]);
    expect(fs.existsSync(w.path)).toBe(false);
    expect(hasBranch('agent/done')).toBe(false);
    expect(worktrees()).toBe(1);
  });

  it('the worktrees folder beside the repository goes with its last worktree, and only when nothing else is in it', async () => {
    const a = await worktreeSession(sb, 'one');
    const b = await worktreeSession(sb, 'two');
    const dir = path.dirname(a.w.path);
    expect(dir).toBe(`${sb.repo}.worktrees`);
    expect(rm('one').code).toBe(0);
    expect(fs.existsSync(a.w.path)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([path.basename(b.w.path)]); // the other worktree's: kept
    fs.writeFileSync(path.join(dir, 'mine.txt'), 'keep me\n');
    expect(rm('two').code).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['mine.txt']); // not ours to delete
    fs.rmSync(path.join(dir, 'mine.txt'));
    const c = await worktreeSession(sb, 'three');
    fs.rmSync(c.w.path, { recursive: true, force: true }); // deleted by hand: pruned, and the folder left empty goes too
    expect(rm('three').code).toBe(0);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('a squash merge, once committed, counts as merged', async () => {
    const { w } = await worktreeSession(sb, 'squashed');
    commitFile(w.path, 'b.txt', 'one\n');
    commitFile(w.path, 'c.txt', 'two\n');
    expect(cli(sb.home, ['merge', 'squashed', '--squash']).code).toBe(0);
    gitIn(sb.repo, 'commit', '-q', '-m', 'squashed');
    const r = rm('squashed');
    expect(r.stdout).toContain('deleted branch agent/squashed');
    expect(fs.existsSync(w.path)).toBe(false);
  });

  it('a branch the session did not create is kept even when merged', async () => {
    const { w } = await worktreeSession(sb, 'reused', { reuse: true });
    const r = rm('reused');
    expect(r.stdout).toContain(`deleted worktree ${w.path}, kept branch agent/reused (it was there before the session)`);
    expect(fs.existsSync(w.path)).toBe(false);
    expect(hasBranch('agent/reused')).toBe(true);
  });
});

describe('rm --discard', () => {
  it('without a terminal it needs --yes (exit 2, nothing deleted); with it, worktree and branch go with their work', async () => {
    const { w } = await worktreeSession(sb, 'gone');
    commitFile(w.path, 'b.txt', 'one\n');
    fs.writeFileSync(path.join(w.path, 'notes.txt'), 'mine\n');
    const refused = rm('gone', '--discard');
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toEqual([
      `agent-board: rm --discard deletes worktree ${w.path} and branch agent/gone with 1 uncommitted path and 1 commit not merged into main; there is no terminal to confirm on: add --yes`,
    ]);
    expect(sessions()).toEqual(['gone']);
    expect(fs.existsSync(path.join(w.path, 'notes.txt'))).toBe(true);
    expect(rm('gone', '--yes').code).toBe(2); // --yes alone means nothing
    const r = rm('gone', '--discard', '--yes');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([`removed gone; discarded worktree ${w.path}, deleted branch agent/gone; discarded 1 uncommitted path and 1 commit not merged into main`]);
    expect(sessions()).toEqual([]);
    expect(fs.existsSync(w.path)).toBe(false);
    expect(hasBranch('agent/gone')).toBe(false);
  });
});

describe('a worktree deleted by hand', () => {
  it('ls still lists the session; rm prunes it in one line; an unmerged branch is kept', async () => {
    const { w } = await worktreeSession(sb, 'byhand');
    commitFile(w.path, 'b.txt', 'one\n');
    fs.rmSync(w.path, { recursive: true, force: true });
    const ls = cli(sb.home, ['ls']);
    expect(ls.code).toBe(0);
    expect(ls.stdout).toContain('byhand');
    const r = rm('byhand');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      `removed byhand; worktree ${w.path} was already deleted (pruned); kept branch agent/byhand (1 commit not merged into main); delete it with: git -C ${sb.repo} branch -D agent/byhand`,
    ]);
    expect(worktrees()).toBe(1);
    expect(hasBranch('agent/byhand')).toBe(true);
  });

  it('a merged branch goes with it', async () => {
    const { w } = await worktreeSession(sb, 'tidy');
    fs.rmSync(w.path, { recursive: true, force: true });
    const r = rm('tidy');
    expect(lines(r.stdout)).toEqual([`removed tidy; worktree ${w.path} was already deleted (pruned), deleted branch agent/tidy (merged into main, nothing uncommitted)`]);
    expect(hasBranch('agent/tidy')).toBe(false);
  });
});

describe('kill and restart never touch the worktree', () => {
  it('files, uncommitted work, the branch and the record stay through both', async () => {
    const { id, w } = await worktreeSession(sb, 'keep', { running: true });
    const tip = commitFile(w.path, 'b.txt', 'one\n');
    fs.writeFileSync(path.join(w.path, 'wip.txt'), 'half\n');
    const status = () => gitIn(w.path, 'status', '--porcelain');
    expect(cli(sb.home, ['kill', 'keep']).code).toBe(0);
    expect(status()).toBe('?? wip.txt');
    expect(gitIn(sb.repo, 'rev-parse', 'agent/keep')).toBe(tip);
    expect(cli(sb.home, ['restart', 'keep']).code).toBe(0);
    expect(readHost(sb.home, id)).toMatchObject({ status: 'running', cwd: w.path, worktree: w });
    expect(status()).toBe('?? wip.txt');
    expect(gitIn(sb.repo, 'rev-parse', 'agent/keep')).toBe(tip);
    expect(worktrees()).toBe(2);
  });
});
