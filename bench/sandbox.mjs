// (j) What a sandbox costs (issue 32, docs/sandbox.md): the same things with and without
// `--sandbox --network none`, in the same run, interleaved, so the machine's load falls on both.
//   new-to-running: from spawning `agent-board new` until the program has written a marker file
//                   in its folder (the program is running, inside the sandbox when sandboxed);
//   echo:           a key through an attached client to the echo program and back, sandboxed
//                   session against unsandboxed one (the sandbox is not in the data path: it
//                   should cost nothing);
//   raw bwrap:      for reference, `bwrap <the session's namespaces> true` against `true`.
// Where this agent-board cannot start a sandboxed session (no `--sandbox` yet, or exit 17 on a
// machine that cannot sandbox), the sandboxed side says why and the rest is still measured.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { roundTrip } from './echo.mjs';
import { BIN, NODE, baseEnv, median, now, percentile, ptyRun, sleep, timeRuns } from './lib.mjs';

/** `new` to running, each side (BENCH_SANDBOX_ROUNDS): every round starts and removes two sessions. */
const NEW_ROUNDS = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 9);
/** Echo round trips per side (BENCH_SANDBOX_ECHO_ROUNDS), after a warm-up. */
const ECHO_ROUNDS = Number(process.env.BENCH_SANDBOX_ECHO_ROUNDS ?? 1000);
const ECHO_WARMUP = 30;
const RAW_ROUNDS = 30;
const MARKER_TIMEOUT_MS = 20_000;
const KEYS = 'vwxyzq';
const ECHO_PROGRAM = ['sh', '-c', 'stty raw -echo; printf "ECHO-%s\\r\\n" READY; exec cat'];
/** The sandbox the sessions get: the bench has no network needs, and `none` needs no proxy. */
const SANDBOX_FLAGS = ['--sandbox', '--network', 'none'];
/** The same with the network proxy: the runner starts srt's proxy, and a bridge runs inside before the program. */
const ALLOWLIST_FLAGS = ['--sandbox', '--network', 'allowlist'];
/** bwrap with the session's namespaces and base mounts (the contract's; no per-session binds). */
const BWRAP_ARGS = ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];

/** `agent-board new` in a PTY; resolves with its exit code, output and the session id (the last line) when it succeeded. */
async function newSession(ab, name, dir, command, sandboxed) {
  const flags = sandboxed === 'allowlist' ? ALLOWLIST_FLAGS : sandboxed ? SANDBOX_FLAGS : [];
  const r = await ptyRun(NODE, [BIN, 'new', '--name', name, '--cwd', dir, ...flags, '--', ...command], { cols: 200, rows: 50, env: ab.env });
  const id = r.output.trim().split(/\r?\n/).pop()?.trim();
  if (r.code === 0 && id && /^[0-9a-f]+$/.test(id)) {
    ab.ids.push(id);
    return { id };
  }
  return { error: `exit ${r.code}: ${r.output.trim().split(/\r?\n/).pop() ?? ''}` };
}

function remove(ab, id) {
  spawnSync(NODE, [BIN, 'rm', '--force', id], { env: ab.env, stdio: 'ignore', timeout: 15_000 });
  ab.ids = ab.ids.filter((x) => x !== id);
}

/** From spawning `new` to the marker file the program writes first thing, in ms. */
async function newToRunning(ab, dir, round, sandboxed) {
  const tag = sandboxed === 'allowlist' ? 'a' : sandboxed ? 's' : 'u';
  const marker = path.join(dir, `running-${round}-${tag}`);
  const program = ['sh', '-c', `: > ${marker}; exec cat`];
  const t0 = now();
  const started = newSession(ab, `bench-sbx-${round}-${tag}`, dir, program, sandboxed);
  let t1 = null;
  for (;;) {
    if (fs.existsSync(marker)) {
      t1 = now();
      break;
    }
    if (now() - t0 > MARKER_TIMEOUT_MS) break;
    await sleep(1);
  }
  const s = await started;
  if (s.id) remove(ab, s.id);
  if (s.error) return { error: s.error };
  if (t1 === null) return { error: `the program did not write its marker in ${MARKER_TIMEOUT_MS} ms` };
  return { ms: t1 - t0 };
}

export async function benchSandbox({ ab, tmp, log }) {
  const dir = path.join(tmp, 'sandbox-bench');
  fs.mkdirSync(dir, { recursive: true });
  const results = [];

  // Whether a sandboxed session can be started here at all: one try, its words kept.
  const probe = await newToRunning(ab, dir, 'probe', true);
  const sandboxWhy = probe.error ?? null;
  if (sandboxWhy) log(`(j) sandboxed side NOT RUN: agent-board new ${SANDBOX_FLAGS.join(' ')} failed: ${sandboxWhy}`);

  // (a) new to running, alternating which side goes first.
  const plain = [];
  const boxed = [];
  for (let i = 0; i < NEW_ROUNDS; i++) {
    for (const sandboxed of i % 2 ? [true, false] : [false, true]) {
      if (sandboxed && sandboxWhy) continue;
      const r = await newToRunning(ab, dir, i, sandboxed);
      if (r.error) throw new Error(`new ${sandboxed ? 'sandboxed' : 'unsandboxed'}, round ${i}: ${r.error}`);
      (sandboxed ? boxed : plain).push(r.ms);
    }
  }
  const a = { plain: median(plain), boxed: median(boxed) };
  log(`(j) new to running: unsandboxed median ${a.plain.toFixed(1)} ms${sandboxWhy ? '' : `, sandboxed ${a.boxed.toFixed(1)} ms, ratio ${(a.boxed / a.plain).toFixed(2)}`} (${NEW_ROUNDS} each)`);
  results.push({
    key: 'sandbox_new_to_running',
    name: 'new to the program running, sandboxed (ms)',
    unit: 'ms',
    agentBoard: a.boxed,
    tmux: a.plain,
    versus: 'unsandboxed',
    ratio: a.boxed / a.plain,
    target: 'reported (no target)',
    pass: null,
    extra: { plain, boxed, rounds: NEW_ROUNDS },
    note: sandboxWhy ? `sandboxed NOT RUN: ${sandboxWhy}` : `median of ${NEW_ROUNDS}; ${SANDBOX_FLAGS.join(' ')}; the program writes a marker file first thing`,
  });

  // (a') the same with --network allowlist: srt's proxy started by the runner, the bridge inside.
  const allowProbe = sandboxWhy ? { error: sandboxWhy } : await newToRunning(ab, dir, 'probe', 'allowlist');
  if (allowProbe.error) log(`(j) allowlist side NOT RUN: ${allowProbe.error}`);
  else {
    const allow = [];
    const plain2 = [];
    for (let i = 0; i < NEW_ROUNDS; i++) {
      for (const mode of i % 2 ? ['allowlist', false] : [false, 'allowlist']) {
        const r = await newToRunning(ab, dir, `${i}-n`, mode);
        if (r.error) throw new Error(`new ${mode || 'unsandboxed'}, round ${i}: ${r.error}`);
        (mode ? allow : plain2).push(r.ms);
      }
    }
    const m = { plain: median(plain2), allow: median(allow) };
    log(`(j) new to running with the network proxy: unsandboxed ${m.plain.toFixed(1)} ms, --network allowlist ${m.allow.toFixed(1)} ms, ratio ${(m.allow / m.plain).toFixed(2)}`);
    results.push({
      key: 'sandbox_allowlist_new_to_running',
      name: 'new to running, --network allowlist (ms)',
      unit: 'ms',
      agentBoard: m.allow,
      tmux: m.plain,
      versus: 'unsandboxed',
      ratio: m.allow / m.plain,
      target: 'reported (no target)',
      pass: null,
      extra: { plain: plain2, allow, rounds: NEW_ROUNDS },
      note: `median of ${NEW_ROUNDS}; ${ALLOWLIST_FLAGS.join(' ')} (the runner starts srt's proxy; socat bridges it in)`,
    });
  }

  // (b) echo through an attached client, the two sessions key by key in turn.
  const sessions = [{ label: 'unsandboxed', sandboxed: false }, ...(sandboxWhy ? [] : [{ label: 'sandboxed', sandboxed: true }])];
  for (const s of sessions) {
    const r = await newSession(ab, `bench-sbx-echo-${s.label}`, dir, ECHO_PROGRAM, s.sandboxed);
    if (r.error) throw new Error(`echo session (${s.label}): ${r.error}`);
    s.id = r.id;
  }
  await sleep(200); // both programs in raw mode
  for (const s of sessions) {
    s.client = ab.attach(s.id);
    s.samples = [];
  }
  try {
    await Promise.all(sessions.map((s) => s.client.waitForText('ECHO-READY', 10_000)));
    for (const s of sessions) await s.client.settle(150);
    for (let i = 0; i < ECHO_WARMUP + ECHO_ROUNDS; i++) {
      const key = KEYS[i % KEYS.length];
      for (let j = 0; j < sessions.length; j++) {
        const s = sessions[(i + j) % sessions.length];
        const ms = await roundTrip(s.client, key, s.label);
        if (i >= ECHO_WARMUP) s.samples.push(ms);
        await new Promise((r) => setImmediate(r));
      }
    }
  } finally {
    for (const s of sessions) {
      s.client.write('\x1c');
      await s.client.waitExit(3000);
    }
  }
  const stat = (xs) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
  const [u, b] = [stat(sessions[0].samples), sessions[1] ? stat(sessions[1].samples) : { p50: NaN, p99: NaN }];
  log(`(j) echo: unsandboxed p50 ${u.p50.toFixed(3)} / p99 ${u.p99.toFixed(3)} ms${sandboxWhy ? '' : `; sandboxed p50 ${b.p50.toFixed(3)} / p99 ${b.p99.toFixed(3)} ms, ratio ${(b.p50 / u.p50).toFixed(2)} / ${(b.p99 / u.p99).toFixed(2)}`}`);
  for (const q of ['p50', 'p99']) {
    results.push({
      key: `sandbox_echo_${q}`,
      name: `keystroke echo ${q}, sandboxed session (ms)`,
      unit: 'ms',
      agentBoard: b[q],
      tmux: u[q],
      versus: 'unsandboxed',
      ratio: b[q] / u[q],
      target: 'reported (no target)',
      pass: null,
      extra: { rounds: ECHO_ROUNDS, warmup: ECHO_WARMUP },
      note: sandboxWhy ? `sandboxed NOT RUN: ${sandboxWhy}` : `${ECHO_ROUNDS} keys each, the two sessions interleaved key by key`,
    });
  }

  // (c) raw bubblewrap, no agent-board: what the namespaces and mounts cost a program's start.
  const bwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
  if (!bwrap) {
    log('(j) raw bwrap: NOT RUN: bwrap is not installed');
  } else {
    const env = baseEnv();
    timeRuns('true', [], 2, env);
    timeRuns(bwrap, [...BWRAP_ARGS, 'true'], 2, env);
    const bare = [];
    const wrapped = [];
    for (let i = 0; i < RAW_ROUNDS; i++) {
      bare.push(...timeRuns('true', [], 1, env));
      wrapped.push(...timeRuns(bwrap, [...BWRAP_ARGS, 'true'], 1, env));
    }
    const rb = { bare: median(bare), wrapped: median(wrapped) };
    log(`(j) raw: true ${rb.bare.toFixed(2)} ms, bwrap ... true ${rb.wrapped.toFixed(2)} ms (median of ${RAW_ROUNDS})`);
    results.push({
      key: 'sandbox_raw_bwrap',
      name: 'bwrap ... true against true (ms)',
      unit: 'ms',
      agentBoard: rb.wrapped,
      tmux: rb.bare,
      versus: 'bare true',
      ratio: rb.wrapped / rb.bare,
      target: 'reported (no target)',
      pass: null,
      extra: { bare, wrapped, args: BWRAP_ARGS },
      note: `for reference: the namespaces and base mounts of a session (${BWRAP_ARGS.join(' ')}), no agent-board`,
    });
  }
  return results;
}
