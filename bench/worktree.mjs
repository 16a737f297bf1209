// new --worktree, measured: the wall time to the program running on a
// repository of 10,000 files, beside a plain `git worktree add` of it; then
// the CPU of 20 worktree sessions' runners keeping their counts fresh, idle
// and while files change. Runnable by itself (after npm run build):
//   node bench/worktree.mjs        (BENCH_FILES, BENCH_SESSIONS, BENCH_SECONDS to change the sizes)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'agent-board');
const FILES = Number(process.env.BENCH_FILES) || 10_000;
const SESSIONS = Number(process.env.BENCH_SESSIONS) || 20;
const SECONDS = Number(process.env.BENCH_SECONDS) || 30;
const TICKS = 100; // USER_HZ on Linux: /proc/<pid>/stat counts CPU in these
const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b', GIT_CONFIG_NOSYSTEM: '1' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = () => Number(process.hrtime.bigint()) / 1e6;
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-bench-wt-')));
const home = path.join(tmp, 'home');
fs.mkdirSync(home, { mode: 0o700 });
const repo = path.join(tmp, 'repo');
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
const ab = (args, extra = {}) => spawnSync(process.execPath, [BIN, ...args], { env: { ...env, AGENT_BOARD_HOME: home, ...extra }, encoding: 'utf8' });

function cleanup() {
  const sessions = path.join(home, 'sessions');
  for (const id of fs.existsSync(sessions) ? fs.readdirSync(sessions) : []) {
    try {
      const r = JSON.parse(fs.readFileSync(path.join(sessions, id, 'host.json'), 'utf8'));
      for (const pid of [r.childPid ? -r.childPid : 0, r.runnerPid]) if (pid) try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
    } catch { /* no host file: nothing started */ }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);

// A repository of FILES files in 100 folders, one commit.
fs.mkdirSync(repo);
git(repo, 'init', '-q', '-b', 'main');
for (let i = 0; i < FILES; i++) {
  const dir = path.join(repo, `d${i % 100}`);
  if (i < 100) fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, `f${i}.txt`), `file ${i}\n`.repeat(10));
}
fs.writeFileSync(path.join(repo, '.gitignore'), '.env\n');
fs.writeFileSync(path.join(repo, '.env'), 'SECRET=1\n');
fs.writeFileSync(path.join(repo, '.worktreeinclude'), '.env\n');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'init');

// 1. Wall time: plain git worktree add, and new --worktree until the program has run (it writes a marker).
const plain = [];
const ours = [];
const bare = [];
for (let i = 0; i < 5; i++) {
  let t = ms();
  git(repo, 'worktree', 'add', '-q', '-b', `plain/${i}`, path.join(tmp, `plain-${i}`));
  plain.push(ms() - t);
  const marker = path.join(tmp, `marker-${i}`);
  t = ms();
  const r = ab(['new', '--name', `w${i}`, '--cwd', repo, '--worktree', '--', '/bin/sh', '-c', `: > ${marker}; exec sleep 600`]);
  if (r.status !== 0) throw new Error(`new failed: ${r.stderr}`);
  while (!fs.existsSync(marker)) await sleep(1);
  ours.push(ms() - t);
  // The same program in a session without a worktree (in the main checkout).
  const bareMarker = path.join(tmp, `bare-${i}`);
  t = ms();
  if (ab(['new', '--name', `b${i}`, '--cwd', repo, '--', '/bin/sh', '-c', `: > ${bareMarker}; exec sleep 600`]).status !== 0) throw new Error('new failed');
  while (!fs.existsSync(bareMarker)) await sleep(1);
  bare.push(ms() - t);
}
console.log(`repository: ${FILES} files`);
console.log(`git worktree add                 median ${median(plain).toFixed(0)} ms  (${plain.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`new (no worktree), program running median ${median(bare).toFixed(0)} ms  (${bare.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`new --worktree, program running  median ${median(ours).toFixed(0)} ms  (${ours.map((x) => x.toFixed(0)).join(', ')})`);
for (let i = 0; i < 5; i++) for (const n of [`w${i}`, `b${i}`]) ab(['kill', n]);

// 2. CPU of SESSIONS worktree sessions (shells) kept fresh: idle, then a file changing in each every second.
const names = [];
for (let i = 0; i < SESSIONS; i++) {
  const r = ab(['new', '--name', `s${i}`, '--cwd', repo, '--worktree', '--', '/bin/sh']);
  if (r.status !== 0) throw new Error(`new failed: ${r.stderr}`);
  names.push(`s${i}`);
}
const records = () => JSON.parse(ab(['ls', '--json']).stdout).filter((s) => names.includes(s.name) && s.status === 'running');
await sleep(3000); // their first counts
const recs = records();
const cpu = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS; // utime stime cutime cstime: the runner and the gits it waited for
};
const total = () => recs.reduce((n, r) => n + cpu(r.runnerPid), 0);
const counted = () => new Map(records().map((r) => [r.name, r.worktreeStats?.at]));

let c0 = total();
await sleep(SECONDS * 1000);
const idle = total() - c0;

let before = counted();
let refreshes = 0;
c0 = total();
const end = Date.now() + SECONDS * 1000;
let tick = 0;
while (Date.now() < end) {
  tick++;
  for (const r of recs) fs.appendFileSync(path.join(r.cwd, 'work.txt'), `line ${tick}\n`);
  await sleep(1000);
  const now = counted();
  for (const [n, at] of now) if (at !== before.get(n)) refreshes++;
  before = now;
}
const busy = total() - c0;
console.log(`${recs.length} worktree sessions, ${SECONDS} s idle:                      runners' CPU ${(idle * 1000).toFixed(0)} ms in all (${((idle / SECONDS) * 100).toFixed(2)}% of one core)`);
console.log(`${recs.length} worktree sessions, ${SECONDS} s, a file changing in each every 1 s: runners' CPU ${(busy * 1000).toFixed(0)} ms in all (${((busy / SECONDS) * 100).toFixed(2)}% of one core), ${refreshes} counts written (${(refreshes / recs.length / SECONDS).toFixed(2)} per session per second)`);
