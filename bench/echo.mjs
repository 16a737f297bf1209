// (b) Keystroke echo round trip through `attach`, against `tmux attach`, with
// the same raw-mode echo program in a plain node-pty as the floor, and the
// floor under a Node runner: bench/fixtures/node-relay.mjs, a Node process
// that only relays keys and echo as the runner does, with the runner's flags.
// One byte goes into the client's PTY; the clock stops when it comes back out of it.
import fs from 'node:fs';
import path from 'node:path';
import { NODE, PtyClient, ROOT, baseEnv, cpuSeconds, now, percentile, runnerNodeFlags, sleep } from './lib.mjs';

const WARMUP = 30;
/**
 * Round trips timed on each path (BENCH_ECHO_ROUNDS to change it). With 300, the p99 was the 3rd
 * slowest key, one hiccup of the machine: the same code gave 0.46 to 1.54 times tmux's p99 in
 * seven runs of one day, and tmux's own p99 went from 1.3 to 3.6 ms. With 3000 it is the 30th;
 * the paths stay interleaved key by key, so each sees the same machine. About 25 s.
 */
const ROUNDS = Number(process.env.BENCH_ECHO_ROUNDS ?? 3000);
const ROUND_TIMEOUT_MS = 5000;
// Letters that are not common CSI finals, so an escape sequence cannot pass for the echo.
const KEYS = 'vwxyzq';
const ECHO_PROGRAM = ['sh', '-c', 'stty raw -echo; printf "ECHO-%s\\r\\n" READY; exec cat'];
/**
 * The first key after a pause: long enough (over the runner's 2 s BYTES_IDLE_MS)
 * for the session to have turned idle, so its echo also turns it busy, which
 * rewrites host.json: what a person typing after reading sees, not a stream of keys.
 */
const PAUSE_MS = 2300;
const PAUSE_ROUNDS = 8;

/** One key into a client's PTY; resolves with the ms until it came back out (the sandbox bench times its keys so too). */
export async function roundTrip(client, key, label) {
  const back = client.watch((buf) => buf.includes(key.charCodeAt(0)), ROUND_TIMEOUT_MS, `the echo of ${key} (${label})`);
  const t0 = now();
  client.write(key);
  return (await back) - t0;
}

/**
 * The paths key by key in turn (the order rotating each round), all attached at once: whatever
 * else the machine does in a stretch of the run falls on each path alike. Run one after another,
 * a path could have its 300 keys in a quiet stretch and the next in a busy one; the p50 ratio
 * moved between 0.3 and 7.5 across runs that way.
 */
async function interleavedRounds(paths, log) {
  const samples = paths.map(() => []);
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const key = KEYS[i % KEYS.length];
    for (let j = 0; j < paths.length; j++) {
      const k = (i + j) % paths.length;
      const ms = await roundTrip(paths[k].client, key, paths[k].label);
      if (i >= WARMUP) samples[k].push(ms);
      await new Promise((r) => setImmediate(r));
    }
  }
  paths.forEach((p, k) => log(`(b) ${p.label}: p50 ${percentile(samples[k], 50).toFixed(3)} ms, p99 ${percentile(samples[k], 99).toFixed(3)} ms`));
  return samples;
}

/** Keys typed one at a time after PAUSE_MS of quiet each, into each path in turn (the order alternating). */
async function pausedRounds(paths, log) {
  const samples = paths.map(() => []);
  for (let i = 0; i < PAUSE_ROUNDS; i++) {
    await sleep(PAUSE_MS);
    const key = KEYS[i % KEYS.length];
    for (let j = 0; j < paths.length; j++) {
      const k = (i + j) % paths.length;
      samples[k].push(await roundTrip(paths[k].client, key, `${paths[k].label} after a pause`));
    }
  }
  paths.forEach((p, k) => log(`(b) ${p.label}, first key after ${PAUSE_MS} ms quiet: p50 ${percentile(samples[k], 50).toFixed(3)} ms, max ${Math.max(...samples[k]).toFixed(3)} ms`));
  return samples;
}

export async function benchEcho({ ab, tmux, log }) {
  // The floor: the echo program in a node-pty, no multiplexer.
  const flags = await runnerNodeFlags(); // before any client starts: a client's watch sees only the output after it
  const direct = new PtyClient(ECHO_PROGRAM[0], ECHO_PROGRAM.slice(1), { env: baseEnv() });
  const relay = new PtyClient(NODE, [...flags, path.join(ROOT, 'bench', 'fixtures', 'node-relay.mjs'), ...ECHO_PROGRAM], { env: baseEnv() });
  // Watched from the start: a client's watch sees only the output that comes after it.
  const ready = [direct.waitForText('ECHO-READY', 10_000), relay.waitForText('ECHO-READY', 10_000)];
  const id = await ab.newSession('bench-echo', ECHO_PROGRAM);
  tmux.newSession('echo', ECHO_PROGRAM);
  await sleep(200); // both programs are in raw mode by now
  const abClient = ab.attach(id);
  ready.push(abClient.waitForText('ECHO-READY', 10_000));
  const tmClient = tmux.attach('echo');
  ready.push(tmClient.waitForText('ECHO-READY', 10_000));
  let directSamples;
  let relaySamples;
  let abSamples;
  let tmSamples;
  let abPaused;
  let tmPaused;
  // What each key costs the multiplexer's server: the runner (its relay thread included) and
  // tmux's server, over the interleaved rounds, where each does work only for its own keys.
  const servers = [ab.record(id).runnerPid, tmux.serverPid()];
  let cpuMs;
  try {
    await Promise.all(ready);
    for (const c of [direct, relay, abClient, tmClient]) await c.settle(150);
    const cpu0 = servers.map(cpuSeconds);
    [directSamples, relaySamples, abSamples, tmSamples] = await interleavedRounds(
      [
        { client: direct, label: 'node-pty direct' },
        { client: relay, label: 'a bare Node relay' },
        { client: abClient, label: 'agent-board attach' },
        { client: tmClient, label: 'tmux attach' },
      ],
      log,
    );
    cpuMs = servers.map((pid, k) => ((cpuSeconds(pid) - cpu0[k]) * 1000) / (WARMUP + ROUNDS));
    log(`(b) CPU per key: the runner ${cpuMs[0].toFixed(3)} ms, tmux's server ${cpuMs[1].toFixed(3)} ms`);
    [abPaused, tmPaused] = await pausedRounds(
      [
        { client: abClient, label: 'agent-board attach' },
        { client: tmClient, label: 'tmux attach' },
      ],
      log,
    );
  } finally {
    direct.kill();
    relay.kill();
    abClient.write('\x1c');
    tmClient.write('\x02d');
    await abClient.waitExit(3000);
    await tmClient.waitExit(3000);
  }
  // Which way the keys went (docs/protocol.md, "Direct input"): the runner log says.
  const runnerLog = fs.readFileSync(path.join(ab.home, 'sessions', id, 'runner.log'), 'utf8');
  const keyPath = /keys and echo go through the echo relay/.test(runnerLog)
    ? "keys and echo carried by the runner's echo relay thread"
    : /input comes straight from/.test(runnerLog)
      ? 'keys read by the runner (direct input), through its event loop'
      : 'keys through the attach client';
  log(`(b) agent-board: ${keyPath}`);

  const stat = (s) => ({ p50: percentile(s, 50), p99: percentile(s, 99), min: Math.min(...s), max: Math.max(...s) });
  const a = stat(abSamples);
  const t = stat(tmSamples);
  const d = stat(directSamples);
  const r = stat(relaySamples);
  const ap = stat(abPaused);
  const tp = stat(tmPaused);
  const floor =
    `node-pty direct p50 ${d.p50.toFixed(3)} / p99 ${d.p99.toFixed(3)} ms; ` +
    `a bare Node relay (bench/fixtures/node-relay.mjs) p50 ${r.p50.toFixed(3)} / p99 ${r.p99.toFixed(3)} ms, ratio ${(r.p50 / t.p50).toFixed(2)} / ${(r.p99 / t.p99).toFixed(2)}`;
  return [
    {
      key: 'echo_p50',
      name: 'keystroke echo p50 (ms)',
      unit: 'ms',
      agentBoard: a.p50,
      tmux: t.p50,
      ratio: a.p50 / t.p50,
      target: 'ratio <= 1.0',
      pass: a.p50 <= t.p50,
      extra: { agentBoard: a, tmux: t, direct: d, nodeRelay: r, rounds: ROUNDS, warmup: WARMUP },
      note: `floor: ${floor}; ${keyPath}; the four paths interleaved key by key`,
    },
    {
      key: 'echo_p99',
      name: 'keystroke echo p99 (ms)',
      unit: 'ms',
      agentBoard: a.p99,
      tmux: t.p99,
      ratio: a.p99 / t.p99,
      target: 'ratio <= 1.2',
      pass: a.p99 <= 1.2 * t.p99,
      extra: { direct: d },
      note: `floor: ${floor}`,
    },
    {
      key: 'echo_after_pause_p50',
      name: `first key after ${PAUSE_MS / 1000} s quiet, echo p50 (ms)`,
      unit: 'ms',
      agentBoard: ap.p50,
      tmux: tp.p50,
      ratio: ap.p50 / tp.p50,
      target: 'reported (no target)',
      pass: null,
      extra: { agentBoard: ap, tmux: tp, rounds: PAUSE_ROUNDS, pauseMs: PAUSE_MS },
      note: `${PAUSE_ROUNDS} keys; max agent-board ${ap.max.toFixed(3)} ms, tmux ${tp.max.toFixed(3)} ms (the session turns busy again with each)`,
    },
    {
      key: 'echo_cpu_per_key',
      name: 'CPU per key and its echo, the server (ms)',
      unit: 'ms',
      agentBoard: cpuMs[0],
      tmux: cpuMs[1],
      ratio: cpuMs[0] / cpuMs[1],
      target: 'reported (no target)',
      pass: null,
      extra: { keys: WARMUP + ROUNDS },
      note: "the runner's process (its echo relay thread, and its event loop taking in each echo after the thread wrote it: the ring, the model, host.json) against tmux's server process, user and system time from /proc over the interleaved rounds",
    },
  ];
}
