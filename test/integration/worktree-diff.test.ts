/**
 * The diff of a worktree session on real repositories in temp folders:
 * committed, staged, unstaged and untracked changes all show, against the
 * merge base (the base moving on adds nothing), the user's index is left as
 * it was, and the CLI prints it as a patch, counts and JSON.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { worktreeDiff } from '../../src/client/worktree/worktree-diff.js';
import type { WorktreeInfo } from '../../src/core/worktree/worktree.js';
import { writeHostFile, readHostFile } from '../../src/state/host-store.js';
import { hostFile } from '../../src/state/paths.js';
import { fakeSession } from '../helpers/chat.js';
import { cli, makeHome } from '../helpers/home.js';

const run = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
const write = (dir: string, file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};

let tmp: string;
let repo: string;
let wt: WorktreeInfo;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-wtdiff-'));
  repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  run(repo, 'init', '-q', '-b', 'main');
  write(repo, 'keep.txt', 'one\ntwo\nthree\n');
  write(repo, 'edit.txt', 'a\nb\nc\n');
  write(repo, 'gone.txt', 'bye\n');
  write(repo, '.gitignore', 'ignored.log\n');
  run(repo, 'add', '-A');
  run(repo, 'commit', '-qm', 'init');
  const base = run(repo, 'rev-parse', 'HEAD').trim();
  const wtPath = path.join(tmp, 'wt');
  run(repo, 'worktree', 'add', '-q', '-b', 'agent/work', wtPath);
  wt = { repo, path: wtPath, branch: 'agent/work', base: 'main', baseCommit: base, createdBranch: true };
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A commit, a staged change, an unstaged change, a deletion and an untracked file in the worktree. */
function work(): void {
  write(wt.path, 'committed.txt', 'from a commit\n');
  run(wt.path, 'add', 'committed.txt');
  run(wt.path, 'commit', '-qm', 'work');
  write(wt.path, 'staged.txt', 'staged\n');
  run(wt.path, 'add', 'staged.txt');
  write(wt.path, 'edit.txt', 'a\nB\nc\nd\n');
  fs.rmSync(path.join(wt.path, 'gone.txt'));
  write(wt.path, 'new/untracked.txt', 'untracked 1\nuntracked 2\n');
  write(wt.path, 'ignored.log', 'noise\n');
}

describe('worktreeDiff', () => {
  it('has committed, staged, unstaged, deleted and untracked changes, and nothing ignored', async () => {
    work();
    const d = await worktreeDiff(wt);
    const files = Object.fromEntries(d.model.files.map((f) => [f.path, f]));
    expect(Object.keys(files).sort()).toEqual(['committed.txt', 'edit.txt', 'gone.txt', 'new/untracked.txt', 'staged.txt']);
    expect(files['committed.txt']).toMatchObject({ status: 'added', added: 1, removed: 0 });
    expect(files['staged.txt']).toMatchObject({ status: 'added', added: 1 });
    expect(files['new/untracked.txt']).toMatchObject({ status: 'added', added: 2 });
    expect(files['gone.txt']).toMatchObject({ status: 'deleted', removed: 1 });
    expect(files['edit.txt']).toMatchObject({ status: 'modified', added: 2, removed: 1 });
    const lines = files['edit.txt']!.hunks[0]!.lines;
    expect(lines.map((l) => `${l.kind} ${l.oldNo} ${l.newNo} ${l.text}`)).toEqual(['ctx 1 1 a', 'del 2 null b', 'add null 2 B', 'ctx 3 3 c', 'add null 4 d']);
    expect(d.model).toMatchObject({ added: 6, removed: 2 });
    expect(d.mergeBase).toBe(wt.baseCommit);
  });

  it("leaves the user's index as it was: staged stays staged, untracked stays untracked", async () => {
    work();
    const before = run(wt.path, 'status', '--porcelain');
    await worktreeDiff(wt);
    expect(run(wt.path, 'status', '--porcelain')).toBe(before);
    expect(before).toContain('?? new/');
    expect(before).toContain('A  staged.txt');
  });

  it('measures from the merge base: new commits on the base are not the session\'s work', async () => {
    write(wt.path, 'mine.txt', 'mine\n');
    write(repo, 'theirs.txt', 'theirs\n');
    run(repo, 'add', 'theirs.txt');
    run(repo, 'commit', '-qm', 'base moves on');
    const d = await worktreeDiff(wt);
    expect(d.model.files.map((f) => f.path)).toEqual(['mine.txt']);
  });

  it('is empty for a worktree with no change', async () => {
    const d = await worktreeDiff(wt);
    expect(d.model.files).toEqual([]);
    expect(d.patch).toBe('');
  });

  it('names a rename and a binary file', async () => {
    run(wt.path, 'mv', 'keep.txt', 'kept.txt');
    fs.writeFileSync(path.join(wt.path, 'logo.bin'), Buffer.from([0, 1, 2, 0, 255]));
    const d = await worktreeDiff(wt);
    const byPath = Object.fromEntries(d.model.files.map((f) => [f.path, f]));
    expect(byPath['kept.txt']).toMatchObject({ status: 'renamed', oldPath: 'keep.txt' });
    expect(byPath['logo.bin']).toMatchObject({ status: 'added', binary: true });
  });

  it('says so in one line when the worktree is gone', async () => {
    fs.rmSync(wt.path, { recursive: true, force: true });
    await expect(worktreeDiff(wt)).rejects.toMatchObject({ exitCode: 9, message: `the worktree ${wt.path} is gone` });
  });
});

describe('agent-board diff', () => {
  let home: string;
  beforeEach(() => {
    home = makeHome();
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  function worktreeSession(name: string): void {
    const id = fakeSession(home, name);
    writeHostFile(hostFile(home, id), { ...readHostFile(hostFile(home, id))!, cwd: wt.path, worktree: wt });
  }

  it('prints the patch, --stat the counts, --json the files, --color in colour', () => {
    work();
    worktreeSession('api');
    const plain = cli(home, ['diff', 'api']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('diff --git a/new/untracked.txt b/new/untracked.txt');
    expect(plain.stdout).toContain('+untracked 2');
    expect(plain.stdout).not.toContain('\x1b[');
    const stat = cli(home, ['diff', 'api', '--stat']);
    expect(stat.stdout.split('\n')).toContain('+2 -1  edit.txt');
    expect(stat.stdout).toContain('5 files changed, 6 insertions(+), 2 deletions(-)');
    const json = JSON.parse(cli(home, ['diff', 'api', '--json']).stdout);
    expect(json).toMatchObject({ name: 'api', base: 'main', branch: 'agent/work', added: 6, removed: 2 });
    expect(json.files.find((f: { path: string }) => f.path === 'gone.txt')).toMatchObject({ status: 'deleted', removed: 1 });
    const color = cli(home, ['diff', 'api', '--color']).stdout;
    expect(color).toContain('\x1b[32m+B\x1b[0m');
    expect(color).toContain('\x1b[31m-b\x1b[0m');
    expect(color).toContain('\x1b[36m@@ -1,3 +1,4 @@\x1b[0m');
  });

  it('refuses a session without a worktree in one line, exit 9', () => {
    fakeSession(home, 'plain');
    const r = cli(home, ['diff', 'plain']);
    expect(r.code).toBe(9);
    expect(r.stderr).toBe('agent-board: plain has no worktree of its own (start one with new --worktree); diff is for worktree sessions\n');
  });
});
