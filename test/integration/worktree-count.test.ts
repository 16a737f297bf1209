/**
 * The counts of a few changed paths, built on the last whole count, are the
 * whole count's numbers: a random walk of edits, new files, deletions,
 * folders made, moved and deleted, binary files, mode changes and ignore
 * rules on a real
 * repository, each counted by the paths it touched and compared with a
 * whole count of a fresh counter; git's own changes (add, commit) are
 * whole counts, and the walk goes on from them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorktreeInfo, WorktreeStats } from '../../src/core/worktree/worktree.js';
import { WorktreeCounter, worktreeStats } from '../../src/state/worktree/worktree-count.js';
import { countWhenRead } from '../../src/state/worktree/worktree-read-count.js';
import { FakeTime } from '../helpers/fake-time.js';
import { mulberry32 } from '../helpers/rng.js';
import { makeRepo, sh } from './worktree-new-helpers.js';

const roots: string[] = [];
const counters: WorktreeCounter[] = [];
afterEach(() => {
  for (const c of counters.splice(0)) c.dispose();
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});
const counterOf = (w: WorktreeInfo) => {
  const c = new WorktreeCounter(w, time);
  counters.push(c);
  return c;
};

const time = new FakeTime(Date.UTC(2026, 0, 2, 3, 4, 5));
const counts = ({ at: _at, ...s }: WorktreeStats) => s;

function worktree(): WorktreeInfo {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`d${i % 3}/f${i}.txt`] = `line ${i}\n`.repeat(i + 1);
  files['top.txt'] = 'top\n';
  files['.gitignore'] = '*.log\n';
  const { root, repo } = makeRepo(files);
  roots.push(root);
  const dir = path.join(root, 'wt');
  sh(repo, 'worktree', 'add', '-q', '-b', 'agent/x', dir);
  return { repo, path: dir, branch: 'agent/x', base: 'main', baseCommit: sh(repo, 'rev-parse', 'HEAD').trim(), createdBranch: true };
}

/** Every file and folder of the worktree but git's own, relative. */
function entries(root: string, rel = ''): { files: string[]; dirs: string[] } {
  const out = { files: [] as string[], dirs: [] as string[] };
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (e.name === '.git') continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      out.dirs.push(p);
      const sub = entries(root, p);
      out.files.push(...sub.files);
      out.dirs.push(...sub.dirs);
    } else out.files.push(p);
  }
  return out;
}

let made = 0;

/** One random change to the worktree: what it touched (the paths, or `git` for git's own files), and what it was. */
function randomChange(w: WorktreeInfo, rand: () => number, step: number): { touched: string[] | 'git'; what: string } {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const at = (p: string) => path.join(w.path, p);
  const n = made++;
  const { files, dirs } = entries(w.path);
  const op = Math.floor(rand() * 12);
  let touched: string[] | 'git';
  let what: string;
  if (op === 0 || op === 1) {
    const f = pick(files);
    fs.appendFileSync(at(f), `more ${step}\n`);
    [touched, what] = [[f], `append to ${f}`];
  } else if (op === 2) {
    const f = pick(files);
    fs.writeFileSync(at(f), `rewritten ${step}\n`);
    [touched, what] = [[f], `rewrite ${f}`];
  } else if (op === 3) {
    const d = pick(['', ...dirs]);
    const f = `${d ? `${d}/` : ''}new${n}.${rand() < 0.2 ? 'log' : 'txt'}`;
    fs.writeFileSync(at(f), 'a\nb\nc');
    [touched, what] = [[f], `new file ${f}`];
  } else if (op === 4 && files.length > 3) {
    const f = pick(files);
    fs.rmSync(at(f));
    [touched, what] = [[f], `delete ${f}`];
  } else if (op === 5) {
    const d = `nd${n}`;
    fs.mkdirSync(at(`${d}/inner`), { recursive: true });
    fs.writeFileSync(at(`${d}/one.txt`), '1\n');
    fs.writeFileSync(at(`${d}/inner/two.txt`), '1\n2\n');
    [touched, what] = [[d], `new folder ${d}`];
  } else if (op === 6 && dirs.length > 0) {
    const d = pick(dirs);
    const to = `moved${n}`;
    fs.renameSync(at(d), at(to));
    [touched, what] = [[d, to], `move ${d} to ${to}`];
  } else if (op === 7 && dirs.length > 1) {
    const d = pick(dirs);
    fs.rmSync(at(d), { recursive: true });
    [touched, what] = [[d], `delete folder ${d}`];
  } else if (op === 8) {
    const f = pick(files);
    fs.writeFileSync(at(f), Buffer.from([0, 1, 2, 10]));
    [touched, what] = [[f], `binary ${f}`];
  } else if (op === 9) {
    const f = pick(files);
    fs.chmodSync(at(f), fs.statSync(at(f)).mode ^ 0o111);
    [touched, what] = [[f], `chmod ${f}`];
  } else if (op === 10 && dirs.length > 0) {
    const f = `${pick(dirs)}/.gitignore`;
    fs.writeFileSync(at(f), rand() < 0.5 ? 'new*\n' : '*.txt\n!f*\n');
    [touched, what] = [[f], `ignore rules in ${f}`];
  } else {
    sh(w.path, 'add', '-A');
    if (rand() < 0.5) sh(w.path, 'commit', '-q', '--allow-empty', '-m', `step ${step}`);
    [touched, what] = ['git', 'git add (and commit)'];
  }
  return { touched, what };
}

describe('WorktreeCounter', () => {
  it('counting the changed paths alone gives what a whole count gives, step after step', async () => {
    const w = worktree();
    const rand = mulberry32(28);
    const counter = counterOf(w);
    await counter.full();
    for (let step = 0; step < 60; step++) {
      const { touched, what } = randomChange(w, rand, step);
      const got = touched === 'git' ? await counter.full() : await counter.paths(touched);
      const want = await worktreeStats(w, time);
      expect(want.error).toBeUndefined();
      expect(counts(got), `step ${step}: ${what}`).toEqual(counts(want));
    }
  }, 60_000);

  it('a file known to be untracked is counted again without git', async () => {
    const w = worktree();
    fs.writeFileSync(path.join(w.path, 'notes.txt'), 'one\n');
    const counter = counterOf(w);
    expect(counts(await counter.full())).toMatchObject({ files: 1, added: 1, uncommitted: 1 });
    const before = counter.gitRuns;
    fs.appendFileSync(path.join(w.path, 'notes.txt'), 'two\nthree\n');
    expect(counts(await counter.paths(['notes.txt']))).toMatchObject({ files: 1, added: 3, uncommitted: 1 });
    expect(counter.gitRuns).toBe(before);
    fs.appendFileSync(path.join(w.path, 'top.txt'), 'more\n');
    expect(counts(await counter.paths(['top.txt']))).toMatchObject({ files: 2, added: 4, uncommitted: 2 });
    expect(counter.gitRuns).toBe(before + 2); // diff and status, of that path alone
  });

  it('a second whole count with HEAD and the base where they were asks git three times, not five', async () => {
    const w = worktree();
    const counter = counterOf(w);
    await counter.full();
    const before = counter.gitRuns;
    await counter.full();
    expect(counter.gitRuns - before).toBe(3); // rev-parse, diff, status: merge-base and rev-list kept
    sh(w.repo, 'commit', '-q', '--allow-empty', '-m', 'the base moves');
    expect(counts(await counter.full())).toMatchObject({ behind: 1 });
  });
});

describe("a count and the worktree's own index", () => {
  it('never writes it, nor takes its lock: git diff would, to keep the times it refreshed', async () => {
    const w = worktree();
    const index = sh(w.path, 'rev-parse', '--path-format=absolute', '--git-path', 'index').trim();
    const before = fs.statSync(index);
    const stamp = (st: fs.Stats) => [st.ino, st.size, st.mtimeMs];
    // Times that changed with the content the same: what git diff refreshes and writes back.
    const later = new Date(Date.now() + 5000);
    for (const f of ['top.txt', 'd0/f0.txt', 'd1/f1.txt']) fs.utimesSync(path.join(w.path, f), later, later);
    fs.appendFileSync(path.join(w.path, 'd2/f2.txt'), 'more\n');
    const counter = counterOf(w);
    expect(counts(await counter.full())).toMatchObject({ files: 1, added: 1, uncommitted: 1 });
    expect(counts(await counter.paths(['top.txt', 'd2/f2.txt']))).toMatchObject({ files: 1, added: 1, uncommitted: 1 });
    expect(counts(await worktreeStats(w, time))).toMatchObject({ files: 1, added: 1, uncommitted: 1 });
    expect(counts(await countWhenRead(w, path.join(path.dirname(w.path), 'kept.json'), time))).toMatchObject({ files: 1, added: 1 });
    expect(stamp(fs.statSync(index))).toEqual(stamp(before));
    // The agent's git add, while the counter holds its copy: it takes the lock as always.
    fs.writeFileSync(path.join(w.path, 'x.txt'), 'x\n');
    sh(w.path, 'add', 'x.txt');
    expect(counts(await counter.paths(['x.txt']))).toMatchObject({ files: 2, added: 2, uncommitted: 2 }); // a staged file: the index changed, counted whole
  });
});

describe("the count's copy of the index", () => {
  it("is kept in the session's folder, one a process; a gone process's is swept, and dispose takes ours", async () => {
    const w = worktree();
    const place = fs.mkdtempSync(path.join(path.dirname(w.path), 'session-'));
    fs.writeFileSync(path.join(place, 'worktree-index.2147483646'), 'a dead process left this');
    fs.writeFileSync(path.join(place, 'host.json'), '{}');
    const counter = new WorktreeCounter(w, time, place);
    fs.appendFileSync(path.join(w.path, 'top.txt'), 'more\n');
    expect(counts(await counter.full())).toMatchObject({ files: 1, added: 1 });
    expect(fs.readdirSync(place).sort()).toEqual(['host.json', `worktree-index.${process.pid}`]);
    counter.dispose();
    expect(fs.readdirSync(place)).toEqual(['host.json']);
  });
});

describe('countWhenRead (ls, for a session no runner keeps fresh)', () => {
  it('is the truth after every change, and the last count again (its own time) when nothing it read changed', async () => {
    const w = worktree();
    const kept = path.join(path.dirname(w.path), 'worktree-count.json');
    // A clock a day ahead: every file counted is long settled, so each count is kept.
    const later = new FakeTime(Date.now() + 86_400_000);
    const rand = mulberry32(7);
    for (let step = 0; step < 40; step++) {
      const { what } = randomChange(w, rand, step);
      const want = counts(await worktreeStats(w, time));
      later.advance(1000);
      const first = await countWhenRead(w, kept, later);
      expect(counts(first), `step ${step}: ${what}`).toEqual(want);
      later.advance(1000);
      const again = await countWhenRead(w, kept, later);
      expect(again, `step ${step}: read again`).toEqual(first); // its `at` too: that count's record, kept
    }
  }, 60_000);

  it('an edit that keeps a file as long, and its state in git, is seen', async () => {
    const w = worktree();
    const kept = path.join(path.dirname(w.path), 'worktree-count.json');
    const later = new FakeTime(Date.now() + 86_400_000);
    fs.writeFileSync(path.join(w.path, 'top.txt'), 'TOP\n');
    expect(counts(await countWhenRead(w, kept, later))).toMatchObject({ files: 1, added: 1, removed: 1, uncommitted: 1 });
    fs.writeFileSync(path.join(w.path, 'top.txt'), 'a\nb\n'); // as long, still modified
    expect(counts(await countWhenRead(w, kept, later))).toMatchObject({ files: 1, added: 2, removed: 1, uncommitted: 1 });
    sh(w.path, 'commit', '-qam', 'x');
    expect(counts(await countWhenRead(w, kept, later))).toMatchObject({ files: 1, ahead: 1, uncommitted: 0 });
    fs.writeFileSync(path.join(w.path, 'top.txt'), 'c\nd\n'); // as long again, modified again
    expect(counts(await countWhenRead(w, kept, later))).toMatchObject({ files: 1, added: 2, removed: 1, ahead: 1, uncommitted: 1 });
  });
});
