// new --worktree, measured: the wall time to the program running on a
// repository of 10,000 files, beside a plain `git worktree add` of it; then
// keeping 20 worktree sessions' counts fresh, side by side with the counts
// as they were before (BENCH_REF, a commit of this repository, built here
// from `git archive`): the runners' CPU idle, while files change, and while
// files change and commits are made; how long a change took to show in the
// counts; and what reading exited sessions costs (`ls`, an idle board's
// feed). Runnable by itself (after npm run build):
//   node bench/worktree.mjs        (BENCH_FILES, BENCH_SESSIONS, BENCH_SECONDS, BENCH_REF to change them)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'agent-board');
const FILES = Number(process.env.BENCH_FILES) || 10_000;
const SESSIONS = Number(process.env.BENCH_SESSIONS) || 20;
const SECONDS = Number(process.env.BENCH_SECONDS) || 30;
/** The counts before issue 28 (debounce 2 s, at most every 5 s, four git runs each, no watch of git's files). */
const REF = process.env.BENCH_REF || '36b7f36';
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
const abIn = (bin, h, args) => spawnSync(process.execPath, [bin, ...args], { env: { ...env, AGENT_BOARD_HOME: h }, encoding: 'utf8' });
const ab = (args) => abIn(BIN, home, args);
const homes = [home];
const feeds = [];

function cleanup() {
  for (const f of feeds) f.kill('SIGKILL');
  for (const h of homes) {
    const sessions = path.join(h, 'sessions');
    for (const id of fs.existsSync(sessions) ? fs.readdirSync(sessions) : []) {
      try {
        const r = JSON.parse(fs.readFileSync(path.join(sessions, id, 'host.json'), 'utf8'));
        for (const pid of [r.childPid ? -r.childPid : 0, r.runnerPid]) if (pid) try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
      } catch { /* no host file: nothing started */ }
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

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

// 2. Keeping SESSIONS worktree sessions fresh: the reference's runners and ours side by side, at
// the same time on the same repository, each in a home of its own, the same changes made in both.

/** The reference build: its sources from git, our node_modules and native addons, bundled as `npm run build` does. */
function buildReference() {
  const dir = path.join(tmp, 'ref');
  fs.mkdirSync(dir);
  const tar = spawnSync('sh', ['-c', `git -C "${ROOT}" archive "${REF}" | tar -x -C "${dir}"`], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`cannot take ${REF} from git: ${tar.stderr}`);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const native = path.join(ROOT, 'src', 'runner', 'native', 'build');
  if (fs.existsSync(native)) fs.symlinkSync(native, path.join(dir, 'src', 'runner', 'native', 'build'));
  const b = spawnSync(process.execPath, ['scripts/bundle.mjs'], { cwd: dir, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`cannot build ${REF}: ${b.stderr}`);
  return path.join(dir, 'bin', 'agent-board');
}

const refCommit = git(ROOT, 'rev-parse', '--short', `${REF}^{commit}`).trim();
const sides = [
  { label: `before (${refCommit})`, bin: buildReference(), prefix: 'r' },
  { label: 'this tree', bin: BIN, prefix: 's' },
];
for (const side of sides) {
  side.home = path.join(tmp, `home-${side.prefix}`);
  fs.mkdirSync(side.home, { mode: 0o700 });
  homes.push(side.home);
  side.sessions = [];
  for (let i = 0; i < SESSIONS; i++) {
    const name = `${side.prefix}${i}`;
    const r = abIn(side.bin, side.home, ['new', '--name', name, '--cwd', repo, '--worktree', '--', '/bin/sh']);
    if (r.status !== 0) throw new Error(`new failed: ${r.stderr}`);
    side.sessions.push({ name, id: r.stdout.trim() });
  }
}
const hostOf = (side, s) => JSON.parse(fs.readFileSync(path.join(side.home, 'sessions', s.id, 'host.json'), 'utf8'));
for (const side of sides) {
  for (const s of side.sessions) {
    const r = hostOf(side, s);
    Object.assign(s, { pid: r.runnerPid, dir: r.cwd, edits: [], latencies: [], counts: 0, lastAt: undefined });
  }
}
// The indexes refreshed once, as the agent's first `git status` there would: `git worktree add`
// writes the index in the second it writes the files, so until someone writes it again git
// reads every file's content on each status (a racy index), which no session lives with for long.
await sleep(1100);
for (const side of sides) for (const s of side.sessions) git(s.dir, 'update-index', '-q', '--refresh');
// Their first counts, then a quiet spell.
const firstCounts = Date.now() + 120_000;
while (Date.now() < firstCounts && !sides.every((side) => side.sessions.every((s) => hostOf(side, s).worktreeStats))) await sleep(200);
await sleep(5000);
const cpu = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS; // utime stime cutime cstime: the runner and the gits it waited for
};
const cpuOf = (side) => side.sessions.reduce((n, s) => n + cpu(s.pid), 0);
/** Each worktree's lines added so far: every change below adds one, and commits keep them (they count from the merge base). */
const lines = new Map();
/** After a phase's last change, this long for the slower counts to show it. */
const SETTLE_MS = 8000;

/**
 * One phase: SECONDS long, `change(s, tick)` made in every worktree of both sides each second
 * (it returns how many lines it added, so the count that shows it can be told); host.json is
 * read every 100 ms for when each change showed (its count's own time stamp, `at`).
 */
async function phase(change) {
  for (const side of sides) {
    side.cpu0 = cpuOf(side);
    for (const s of side.sessions) Object.assign(s, { edits: [], latencies: [], counts: 0, lastAt: hostOf(side, s).worktreeStats?.at });
  }
  const poll = () => {
    for (const side of sides) {
      for (const s of side.sessions) {
        const st = hostOf(side, s).worktreeStats;
        if (!st || st.at === s.lastAt) continue;
        s.lastAt = st.at;
        s.counts++;
        while (s.edits.length && s.edits[0].added <= st.added) s.latencies.push(Date.parse(st.at) - s.edits.shift().at);
      }
    }
  };
  const start = Date.now();
  const end = start + SECONDS * 1000;
  let nextTick = start;
  for (let tick = 0; Date.now() < end; tick++) {
    for (const side of tick % 2 ? [...sides].reverse() : sides) {
      for (const [i, s] of side.sessions.entries()) {
        const before = lines.get(s.dir) ?? 0;
        const added = change(s, tick, i);
        if (added > 0) {
          lines.set(s.dir, before + added);
          s.edits.push({ at: Date.now(), added: before + added });
        }
      }
    }
    nextTick += 1000;
    while (Date.now() < nextTick) {
      poll();
      await sleep(100);
    }
  }
  const settle = Date.now() + SETTLE_MS;
  while (Date.now() < settle) {
    poll();
    await sleep(100);
  }
  return sides.map((side) => {
    const lat = side.sessions.flatMap((s) => s.latencies);
    const missed = side.sessions.reduce((n, s) => n + s.edits.length, 0);
    return { cpu: cpuOf(side) - side.cpu0, seconds: (Date.now() - start) / 1000, counts: side.sessions.reduce((n, s) => n + s.counts, 0), lat, missed };
  });
}

const pct = (v, p) => (v.length ? [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)] : NaN);
function report(what, results) {
  console.log(`\n${SESSIONS} worktree sessions, ${what} for ${SECONDS} s (then ${SETTLE_MS / 1000} s to show it):`);
  for (const [i, side] of sides.entries()) {
    const r = results[i];
    const shown = r.lat.length ? `; a change showed after median ${pct(r.lat, 50)} ms, p95 ${pct(r.lat, 95)}, max ${Math.max(...r.lat)} ms${r.missed ? `, ${r.missed} not at all` : ''}` : r.missed ? `; ${r.missed} changes never showed` : '';
    console.log(`  ${side.label.padEnd(18)} runners' CPU ${(r.cpu * 1000).toFixed(0).padStart(6)} ms (${((r.cpu / r.seconds) * 100).toFixed(1)}% of one core), ${r.counts} counts written${shown}`);
  }
  const [a, b] = results;
  console.log(`  ratio (this tree / before): ${a.cpu > 0 ? (b.cpu / a.cpu).toFixed(2) : 'n/a'}`);
}

report('idle', await phase(() => 0));
// An agent editing: a line appended to a tracked file each second, every fifth second a new file instead.
let made = 0;
const edit = (s, tick, i) => {
  if (tick % 5 === 4) fs.writeFileSync(path.join(s.dir, `new-${made++}.txt`), `new ${tick}\n`);
  else fs.appendFileSync(path.join(s.dir, `d${(i + tick) % 100}`, `f${(i + tick) % 100 + 100 * ((i * 7 + tick) % 100)}.txt`), `line ${tick}\n`);
  return 1;
};
report('a file changing in each every second', await phase(edit));
// The same, and a commit of it all in each every 10 s (staggered), as an agent that commits as it goes.
report(
  'a file changing in each every second, a commit every 10 s',
  await phase((s, tick, i) => {
    const n = edit(s, tick, i);
    if ((tick + i) % 10 === 9) {
      git(s.dir, 'add', '-A');
      git(s.dir, 'commit', '-q', '-m', `tick ${tick}`);
    }
    return n;
  }),
);

// 3. Reading exited sessions: ls counts each one now (no runner does), and the board's feed follows them.
for (const side of sides) for (const s of side.sessions) abIn(side.bin, side.home, ['kill', s.name]);
await sleep(3000);
console.log(`\n${SESSIONS} exited worktree sessions:`);
for (const side of sides) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = ms();
    const r = abIn(side.bin, side.home, ['ls']);
    if (r.status !== 0) throw new Error(`ls failed: ${r.stderr}`);
    times.push(ms() - t);
  }
  console.log(`  ${side.label.padEnd(18)} ls median ${median(times).toFixed(0)} ms (${times.map((x) => x.toFixed(0)).join(', ')})`);
}
for (const side of sides) {
  const f = spawn(process.execPath, [side.bin, 'feed', '--json'], { env: { ...env, AGENT_BOARD_HOME: side.home }, stdio: ['pipe', 'pipe', 'inherit'] });
  feeds.push(f);
  side.feed = f;
  side.feedReady = new Promise((resolve) => f.stdout.once('data', resolve));
}
await Promise.all(sides.map((s) => s.feedReady));
await sleep(10_000); // the board's first counts of them (a whole count each, all at once)
const feed0 = sides.map((s) => cpu(s.feed.pid));
await sleep(SECONDS * 1000);
for (const [i, side] of sides.entries()) {
  const c = cpu(side.feed.pid) - feed0[i];
  console.log(`  ${side.label.padEnd(18)} an idle board's feed (agent-board feed --json), ${SECONDS} s: CPU ${(c * 1000).toFixed(0)} ms`);
}
