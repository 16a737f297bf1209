// (a) `cat` of a 50 MB file in a session with one client attached, against
// the same in tmux with a client attached. Time from typing the command to
// the marker the shell prints after cat arriving on the attach client's PTY.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SHELL, cpuSeconds, median, now, rng, sleep } from './lib.mjs';

const FILE_BYTES = 50 * 1024 * 1024;
const RUNS = 3;
const RUN_TIMEOUT_MS = 60_000;

const WORDS = (
  'agent board session runner terminal snapshot scrollback output cursor render parse buffer socket frame ' +
  'client server attach detach resize signal process kernel memory thread queue stream window pane history ' +
  'alpha beta gamma delta epsilon zeta theta lambda sigma omega quick brown fox jumps over lazy dog lorem ipsum ' +
  'dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'
).split(' ');

/** 50 MiB of varied printable lines (lowercase words, digits, punctuation; never the marker). */
export function makeBigFile(dir) {
  const file = path.join(dir, 'big.txt');
  const rand = rng(42);
  const fd = fs.openSync(file, 'w', 0o600);
  let written = 0;
  let line = 0;
  try {
    while (written < FILE_BYTES) {
      const parts = [];
      for (let i = 0; i < 1500; i++) {
        line++;
        const want = 10 + Math.floor(rand() * 150); // 10..160 columns: no wrapping at 200
        let s = `${String(line).padStart(7, '0')}: `;
        while (s.length < want) {
          const r = rand();
          s += r < 0.8 ? WORDS[Math.floor(rand() * WORDS.length)] : r < 0.95 ? String(Math.floor(rand() * 1e6)) : '{[(<#$%&*+=>)]}'[Math.floor(rand() * 15)];
          s += ' ';
        }
        parts.push(s.slice(0, want));
      }
      let chunk = parts.join('\n') + '\n';
      if (written + chunk.length > FILE_BYTES) chunk = chunk.slice(0, FILE_BYTES - written - 1) + '\n';
      fs.writeSync(fd, chunk);
      written += chunk.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { file, bytes: written };
}

/** One timed cat through an attached client; resolves with seconds and CPU seconds per process. */
async function catOnce(client, file, pids) {
  const cpu0 = pids.map(cpuSeconds);
  const a = 100 + crypto.randomInt(1_000_000);
  const b = 100 + crypto.randomInt(1_000_000);
  const marker = `CATDONE-${a + b}`; // the typed command holds $((a+b)), never the sum
  const done = client.waitForText(marker, RUN_TIMEOUT_MS);
  const t0 = now();
  client.write(`cat ${file}; echo CATDONE-$((${a}+${b}))\r`);
  const t1 = await done;
  const cpu = pids.map((pid, i) => cpuSeconds(pid) - cpu0[i]);
  await client.settle(200, 10_000); // prompt and any late redraw, before the next run
  return { s: (t1 - t0) / 1000, cpu };
}

export async function benchThroughput({ ab, tmux, tmp, log }) {
  log('(a) generating the 50 MiB file ...');
  const { file, bytes } = makeBigFile(tmp);
  const shell = SHELL;

  const id = await ab.newSession('bench-cat', shell, { cwd: tmp });
  const abClient = ab.attach(id);
  await abClient.waitForText('PROMPT>', 10_000);
  await abClient.settle();

  tmux.newSession('cat', shell, { cwd: tmp });
  const tmClient = tmux.attach('cat');
  await tmClient.waitForText('PROMPT>', 10_000);
  await tmClient.settle();

  // CPU used during each run: [server side, attach client, this bench process draining].
  const abPids = [ab.record(id).runnerPid, abClient.pid, process.pid];
  const tmPids = [tmux.serverPid(), tmClient.pid, process.pid];
  const abTimes = [];
  const tmTimes = [];
  const abCpu = [];
  const tmCpu = [];
  const cpuText = (c, names) => c.map((x, i) => `${names[i]} ${x.toFixed(2)}`).join(', ');
  try {
    for (let i = 0; i < RUNS; i++) {
      const a = await catOnce(abClient, file, abPids);
      abTimes.push(a.s);
      abCpu.push(a.cpu);
      log(`(a) run ${i + 1}/${RUNS}: agent-board ${a.s.toFixed(2)} s (CPU s: ${cpuText(a.cpu, ['runner', 'attach', 'bench'])})`);
      const t = await catOnce(tmClient, file, tmPids);
      tmTimes.push(t.s);
      tmCpu.push(t.cpu);
      log(`(a) run ${i + 1}/${RUNS}: tmux ${t.s.toFixed(2)} s (CPU s: ${cpuText(t.cpu, ['server', 'client', 'bench'])})`);
    }
  } finally {
    abClient.write('\x1c');
    tmClient.write('\x02d');
    await Promise.all([abClient.waitExit(3000), tmClient.waitExit(3000)]);
  }
  await sleep(50);
  const mib = bytes / (1024 * 1024);
  const abS = median(abTimes);
  const tmS = median(tmTimes);
  return [
    {
      key: 'cat50',
      name: 'cat 50 MiB, client attached (s)',
      unit: 's',
      agentBoard: abS,
      tmux: tmS,
      ratio: abS / tmS,
      target: 'ratio <= 1.0 (no slower than tmux)',
      pass: abS <= tmS,
      extra: {
        bytes,
        agentBoardRuns: abTimes,
        tmuxRuns: tmTimes,
        agentBoardMiBps: mib / abS,
        tmuxMiBps: mib / tmS,
        cpuSecondsPerRun: {
          columns: ['server side (runner / tmux server)', 'attach client', 'bench process'],
          agentBoard: abCpu,
          tmux: tmCpu,
        },
      },
      note: `${(mib / abS).toFixed(1)} vs ${(mib / tmS).toFixed(1)} MiB/s; runs ab [${abTimes.map((x) => x.toFixed(2)).join(', ')}] tmux [${tmTimes.map((x) => x.toFixed(2)).join(', ')}]; server-side CPU median: runner ${median(abCpu.map((c) => c[0])).toFixed(2)} s, tmux ${median(tmCpu.map((c) => c[0])).toFixed(2)} s`,
    },
  ];
}
