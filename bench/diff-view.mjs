// The board's diff view open time on a 5,000-line diff: from D pressed until
// Ink has written the frame with the diff, in an emulated 120x40 terminal,
// with the real git work (src/client/worktree/worktree-diff.ts: merge base, temporary
// index, git diff, jsdiff's parsePatch, the model) inside it. Also each part
// alone: git + parse, and the view's rows.
//
//   npm run build && node bench/diff-view.mjs
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ROOT, median, now, percentile } from './lib.mjs';

process.env.CI = 'false';
const dist = (p) => import(path.join(ROOT, 'dist', p));
const { render } = await import('ink');
const React = (await import('react')).default;
const { Board } = await dist('ui/Board.js');
const { worktreeDiff } = await dist('client/worktree/worktree-diff.js');
const { diffRows } = await dist('core/board/diff-view.js');

const ROUNDS = 10;
const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });

// A repository whose worktree changed every fourth line of a 2,000-line file in a commit
// (2,500 diff lines), of a 1,200-line file without committing (1,500), and added a
// 1,000-line untracked file (1,000): 5,000 diff lines.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-bench-diff-'));
const repo = path.join(tmp, 'repo');
fs.mkdirSync(repo);
git(repo, 'init', '-q', '-b', 'main');
const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n';
fs.writeFileSync(path.join(repo, 'a.ts'), lines(2000, (i) => `export const a${i} = ${i};`));
fs.writeFileSync(path.join(repo, 'b.ts'), lines(1200, (i) => `export const b${i} = ${i};`));
git(repo, 'add', '-A');
git(repo, 'commit', '-qm', 'init');
const wtPath = path.join(tmp, 'wt');
git(repo, 'worktree', 'add', '-q', '-b', 'agent/bench', wtPath);
fs.writeFileSync(path.join(wtPath, 'a.ts'), lines(2000, (i) => (i % 4 === 0 ? `export const a${i} = ${i} + 1;` : `export const a${i} = ${i};`)));
git(wtPath, 'commit', '-qam', 'work');
fs.writeFileSync(path.join(wtPath, 'b.ts'), lines(1200, (i) => (i % 4 === 0 ? `export const b${i} = ${i} * 2;` : `export const b${i} = ${i};`)));
fs.writeFileSync(path.join(wtPath, 'c.ts'), lines(1000, (i) => `export const c${i} = '${i}';`));
const worktree = { repo, path: wtPath, branch: 'agent/bench', base: 'main', baseCommit: '', createdBranch: true };

const first = await worktreeDiff(worktree);
const diffLines = first.model.files.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.length, 0), 0);
console.log(`diff: ${first.model.files.length} files, +${first.model.added} -${first.model.removed}, ${diffLines} diff lines (${(first.patch.length / 1024).toFixed(0)} KiB)`);

class Out extends EventEmitter {
  isTTY = true;
  columns = 120;
  rows = 40;
  text = '';
  write(d, cb, cb2) {
    this.text += typeof d === 'string' ? d : Buffer.from(d).toString('utf8');
    this.emit('wrote');
    (typeof cb === 'function' ? cb : cb2)?.();
    return true;
  }
}
class In extends PassThrough {
  isTTY = true;
  setRawMode() { return this; }
  ref() { return this; }
  unref() { return this; }
}

const at = new Date().toISOString();
const view = { id: 'b1', name: 'bench', agent: 'shell', command: 'sh', args: [], cwd: wtPath, createdAt: at, updatedAt: at, heartbeatAt: at, lastOutputAt: at, runnerPid: 1, childPid: 2, generation: 'g', status: 'running', activity: 'idle', cols: 80, rows: 24, exitCode: null, exitSignal: null, scrollback: 0, runnerAlive: true, worktree };
const feed = { sessions: [view], preview: null, onChange: () => ({ dispose() {} }), onError: () => ({ dispose() {} }), setPreview() {}, dispose() {} };
const actions = { diff: async (s) => (await worktreeDiff(s.worktree)).model };

async function openOnce() {
  const out = new Out();
  const stdin = new In();
  const ink = render(React.createElement(Board, { feed, actions, newDefaults: { name: '', command: 'sh', cwd: '/' }, detachLabel: 'Ctrl-\\', onLeave() {} }), { stdin, stdout: out, stderr: out, exitOnCtrlC: false, patchConsole: false });
  await new Promise((r) => setTimeout(r, 50)); // the board's first frame
  const keep = setInterval(() => {}, 1000); // the event loop waits for the frame
  const t0 = now();
  const drawn = new Promise((resolve) => out.on('wrote', () => out.text.includes('diff of bench: 3 files') && resolve(now())));
  stdin.write('D');
  const t1 = await drawn;
  clearInterval(keep);
  ink.unmount();
  return t1 - t0;
}

const gitParse = [];
const rowsMs = [];
const open = [];
for (let i = 0; i < ROUNDS; i++) {
  let t = now();
  const d = await worktreeDiff(worktree);
  gitParse.push(now() - t);
  t = now();
  diffRows(d.model);
  rowsMs.push(now() - t);
  open.push(await openOnce());
}
const fmt = (xs) => `median ${median(xs).toFixed(1)} ms, p90 ${percentile(xs, 90).toFixed(1)} ms`;
console.log(`git + parse + model: ${fmt(gitParse)}`);
console.log(`the view's rows:     ${fmt(rowsMs)}`);
console.log(`D to the drawn diff: ${fmt(open)}`);
fs.rmSync(tmp, { recursive: true, force: true });
