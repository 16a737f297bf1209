// Usage kept fresh and summed (docs/usage.md), measured:
// (1) 50 sessions' usage kept fresh, as their runners keep it (bench/usage-keepers.mjs, the real
//     UsageKeeper over the real tail, in one child process so its CPU is theirs alone), while
//     every session's transcript grows by a turn (about 10 KiB) every 2 s; beside the same
//     sessions read whole at the same moments (no offset kept). Target: under 1 % of a core.
// (2) a 100 MiB transcript summed the first time (the tail and the sums), and then 1 MiB more
//     read incrementally, beside that same file read whole again. Target: under a second each.
// In `npm run bench` (key `usage`), or by itself after a build:
//   node bench/usage.mjs        (BENCH_USAGE_SESSIONS, BENCH_USAGE_SECONDS, BENCH_USAGE_MIB to change them)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, now } from './lib.mjs';
import { claudeReader, turnLines, writeTranscript } from './usage-transcripts.mjs';

const SESSIONS = Number(process.env.BENCH_USAGE_SESSIONS) || 50;
const SECONDS = Number(process.env.BENCH_USAGE_SECONDS) || 30;
const BIG_MIB = Number(process.env.BENCH_USAGE_MIB) || 100;
/** Each session's transcript before the window: a long conversation already. */
const START_BYTES = 1024 * 1024;
/** Every session gets a turn this often. */
const TURN_EVERY_MS = 2000;
const dist = (p) => import(path.join(ROOT, 'dist', p));

/** One child's CPU over the window, while the transcripts grow. */
async function keepersCpu(mode, dir) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'usage-keepers.mjs'), mode, dir, String(SESSIONS), String(SECONDS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  let i = 0;
  const writer = setInterval(() => {
    fs.appendFileSync(path.join(dir, `s${i % SESSIONS}.jsonl`), turnLines());
    i += 1;
  }, TURN_EVERY_MS / SESSIONS);
  const code = await new Promise((r) => child.on('exit', r));
  clearInterval(writer);
  if (code !== 0) throw new Error(`usage-keepers.mjs ${mode} exited with ${code}`);
  return JSON.parse(out.trim());
}

async function bigTranscript(dir, reader) {
  const { TranscriptTail } = await dist('state/usage/transcript-tail.js');
  const { UsageSum } = await dist('core/usage/usage-sum.js');
  const { priceTable } = await dist('core/usage/prices.js');
  const file = path.join(dir, 'big.jsonl');
  const bytes = writeTranscript(file, BIG_MIB * 1024 * 1024);
  const sumOf = (tail, sum) => {
    const r = tail.read();
    sum.addAll(r.entries);
    return r;
  };
  // Read once before timing, so the page cache holds the file as it would for a transcript just written.
  fs.readFileSync(file);
  // Timed both ways: the wall time, and the CPU time the read took, which other work on a shared machine does not stretch.
  const timed = (fn) => {
    const c = process.cpuUsage();
    const t = now();
    const r = fn();
    const cpu = process.cpuUsage(c);
    return { r, wall: now() - t, cpu: (cpu.user + cpu.system) / 1000 };
  };
  const tail = new TranscriptTail(file, reader);
  const sum = new UsageSum(priceTable());
  const first = timed(() => sumOf(tail, sum));
  const messages = sum.totals().messages;
  writeTranscript(path.join(dir, 'more.jsonl'), 1024 * 1024);
  fs.appendFileSync(file, fs.readFileSync(path.join(dir, 'more.jsonl')));
  const more = timed(() => sumOf(tail, sum));
  const whole = timed(() => sumOf(new TranscriptTail(file, reader), new UsageSum(priceTable())));
  return { bytes, messages, added: more.r.entries.length, first, incremental: more, whole };
}

export async function benchUsage({ log, tmp }) {
  const dir = fs.mkdtempSync(path.join(tmp ?? os.tmpdir(), 'ab-bench-usage-'));
  try {
    const { whose } = await claudeReader();
    log(`reader: ${whose}`);
    const { reader } = await claudeReader();
    const results = [];
    for (let i = 0; i < SESSIONS; i++) writeTranscript(path.join(dir, `s${i}.jsonl`), START_BYTES);
    const ours = await keepersCpu('incremental', dir);
    // The same start for the reference: transcripts as long as they were.
    for (let i = 0; i < SESSIONS; i++) writeTranscript(path.join(dir, `s${i}.jsonl`), START_BYTES);
    const ref = await keepersCpu('whole', dir);
    log(`${SESSIONS} sessions over ${(ours.wallMs / 1000).toFixed(0)} s: ${ours.writes} records written; the whole re-read over ${(ref.wallMs / 1000).toFixed(0)} s`);
    const pct = (x) => Math.round(x * 1000) / 1000;
    results.push({
      name: `usage: ${SESSIONS} sessions kept fresh, CPU % of a core`,
      agentBoard: pct(ours.cpuPercent),
      tmux: pct(ref.cpuPercent),
      versus: 'each read whole',
      unit: '%',
      ratio: ref.cpuPercent > 0 ? ours.cpuPercent / ref.cpuPercent : 0,
      target: '< 1 %',
      pass: ours.cpuPercent < 1,
      note: `transcripts of ${START_BYTES / 1024 / 1024} MiB growing by a turn every ${TURN_EVERY_MS / 1000} s each; busy ${20} s, idle ${5} s`,
    });
    const big = await bigTranscript(dir, reader);
    log(`${(big.bytes / 1024 / 1024).toFixed(0)} MiB, ${big.messages} messages; +1 MiB: ${big.added} messages`);
    results.push({
      name: `usage: ${BIG_MIB} MiB transcript, first read (CPU time)`,
      agentBoard: big.first.cpu,
      tmux: null,
      versus: '-',
      unit: 'ms',
      ratio: 0,
      target: '< 1000 ms',
      pass: big.first.cpu < 1000,
      note: `wall time ${big.first.wall.toFixed(0)} ms (${os.loadavg()[0].toFixed(1)} load: the CPU time is the read's own)`,
    });
    results.push({
      name: 'usage: then 1 MiB more, read incrementally (CPU time)',
      agentBoard: big.incremental.cpu,
      tmux: big.whole.cpu,
      versus: 'read whole again',
      unit: 'ms',
      ratio: big.incremental.cpu / big.whole.cpu,
      target: '< 1000 ms',
      pass: big.incremental.cpu < 1000 && big.incremental.cpu < big.whole.cpu,
      note: `wall time ${big.incremental.wall.toFixed(1)} ms, read whole again ${big.whole.wall.toFixed(0)} ms`,
    });
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const log = (s) => process.stdout.write(`  ${s}\n`);
  for (const r of await benchUsage({ log })) {
    const v = (x) => (x === null ? '-' : r.unit === 'ms' ? `${x.toFixed(1)} ms` : `${x} ${r.unit}`);
    process.stdout.write(`${r.name}: agent-board ${v(r.agentBoard)}, ${r.versus} ${v(r.tmux)} (target ${r.target}) ${r.pass ? 'PASS' : 'MISS'}\n`);
    if (r.note) process.stdout.write(`  ${r.note}\n`);
  }
}
