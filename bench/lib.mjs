// Shared plumbing for the benchmarks: temp dirs, the agent-board CLI, a
// private tmux server, PTY clients whose output we drain and watch, stats and
// a cleanup list that runs even when a benchmark fails.
import { execFile, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin', 'agent-board');
export const NODE = process.execPath;
export const TMUX = '/usr/bin/tmux';

/** The V8 flags the runner starts with (src/client/session/runner-start.ts RUNNER_NODE_FLAGS), from the build: references started as the runner is use them. */
export async function runnerNodeFlags() {
  const { RUNNER_NODE_FLAGS } = await import(new URL('../dist/client/session/runner-start.js', import.meta.url).href);
  return RUNNER_NODE_FLAGS;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => Number(process.hrtime.bigint()) / 1e6; // ms, monotonic

// ---- stats -----------------------------------------------------------------

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  // nearest rank
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export function median(values) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A small seeded PRNG (mulberry32), so generated data is the same every run. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- cleanup ---------------------------------------------------------------

/** Cleanup steps, run last-in first-out; each step's failure is reported, not thrown. */
export class Cleanup {
  steps = [];
  ran = false;
  add(what, fn) {
    this.steps.push({ what, fn });
  }
  async run() {
    if (this.ran) return;
    this.ran = true;
    while (this.steps.length) {
      const { what, fn } = this.steps.pop();
      try {
        await fn();
      } catch (err) {
        process.stderr.write(`bench cleanup: ${what}: ${err?.message ?? err}\n`);
      }
    }
  }
}

/**
 * The interactive shell both sides run: bash without rc files and with a
 * known prompt (set through env(1): tmux starts commands with sh -c, and dash
 * does not pass PS1 on).
 */
export const SHELL = ['env', 'PS1=PROMPT> ', 'bash', '--norc', '--noprofile', '-i'];

// ---- the environment every child gets ----------------------------------------

/**
 * A clean environment: no TMUX (tmux refuses to nest), no agent-board session
 * variables, a plain prompt and no shell history files.
 */
export function baseEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k === 'TMUX' || k === 'TMUX_PANE' || k.startsWith('AGENT_BOARD_')) continue;
    env[k] = v;
  }
  return { ...env, TERM: 'xterm-256color', HISTFILE: '/dev/null', LANG: env.LANG || 'C.UTF-8', ...extra };
}

// ---- PTY clients -------------------------------------------------------------

/**
 * A program in its own PTY (our stand-in for the user's terminal). Output is
 * taken as Buffers and drained at once; `watch` installs a predicate that sees
 * every chunk and resolves when it returns true.
 */
const liveClients = new Set();

/** SIGKILLs every PTY client we spawned that is still running (cleanup). */
export function killAllClients() {
  for (const c of liveClients) c.kill();
}

export class PtyClient {
  constructor(file, args, { cols = 200, rows = 50, env = baseEnv(), cwd = ROOT } = {}) {
    this.startedAt = now();
    this.p = pty.spawn(file, args, { name: 'xterm-256color', cols, rows, env, cwd, encoding: null });
    this.pid = this.p.pid;
    liveClients.add(this);
    this.bytes = 0;
    this.firstOutputAt = null;
    this.watcher = null;
    this.keep = false;
    this.kept = [];
    this.exited = new Promise((resolve) => {
      this.p.onExit((e) => {
        liveClients.delete(this);
        this.exitInfo = e;
        resolve(e);
      });
    });
    this.p.onData((buf) => {
      if (this.firstOutputAt === null) this.firstOutputAt = now();
      this.bytes += buf.length;
      if (this.keep) this.kept.push(buf);
      const w = this.watcher;
      if (w && w.test(buf)) {
        this.watcher = null;
        clearTimeout(w.timer);
        w.resolve(now());
      }
    });
  }

  /** Resolves with the time (ms) of the chunk for which test(chunk) is true. */
  watch(test, timeoutMs, what) {
    if (this.watcher) throw new Error('one watcher at a time');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watcher = null;
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.watcher = { test, resolve, timer };
    });
  }

  /** Resolves when `text` appears in the output, across chunk boundaries. */
  waitForText(text, timeoutMs = 10_000) {
    const needle = Buffer.from(text);
    let carry = Buffer.alloc(0);
    return this.watch(
      (buf) => {
        const hay = carry.length ? Buffer.concat([carry, buf]) : buf;
        if (hay.indexOf(needle) >= 0) return true;
        carry = hay.subarray(Math.max(0, hay.length - needle.length + 1));
        return false;
      },
      timeoutMs,
      JSON.stringify(text),
    );
  }

  /** Resolves once no output has come for `quietMs`. */
  async settle(quietMs = 150, maxMs = 5000) {
    const end = now() + maxMs;
    let last = this.bytes;
    for (;;) {
      await sleep(quietMs);
      if (this.bytes === last || now() > end) return;
      last = this.bytes;
    }
  }

  write(data) {
    this.p.write(data);
  }

  /** Waits for the exit; SIGKILLs the process (by its pid) if it does not come. */
  async waitExit(timeoutMs = 3000) {
    const t = await Promise.race([this.exited.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!t) this.kill();
    return t;
  }

  kill() {
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Spawns a program in a PTY of the given size and resolves with its whole output once it exits. */
export async function ptyRun(file, args, opts = {}, timeoutMs = 20_000) {
  const c = new PtyClient(file, args, opts);
  c.keep = true;
  const ok = await c.waitExit(timeoutMs);
  if (!ok) throw new Error(`${path.basename(file)} ${args.join(' ')} did not finish in ${timeoutMs} ms`);
  await sleep(20); // the last chunk may trail the exit event
  return { code: c.exitInfo.exitCode, output: Buffer.concat(c.kept).toString('utf8') };
}

// ---- agent-board -------------------------------------------------------------

export class AgentBoard {
  constructor(home, cleanup) {
    this.home = home;
    this.env = baseEnv({ AGENT_BOARD_HOME: home });
    this.ids = [];
    cleanup.add('agent-board sessions', () => this.removeAll());
  }

  cli(args, timeout = 20_000) {
    const r = spawnSync(NODE, [BIN, ...args], { env: this.env, encoding: 'utf8', timeout });
    if (r.status !== 0) throw new Error(`agent-board ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr.trim()}`);
    return r.stdout;
  }

  /**
   * `agent-board new` run inside a PTY of cols x rows, so the session starts
   * at the size the benchmark's client will have (no resize on attach).
   */
  async newSession(name, command, { cols = 200, rows = 50, cwd = ROOT } = {}) {
    const r = await ptyRun(NODE, [BIN, 'new', '--name', name, '--cwd', cwd, '--', ...command], { cols, rows, env: this.env });
    const id = r.output.trim().split(/\r?\n/).pop()?.trim();
    if (r.code !== 0 || !id || !/^[0-9a-f]+$/.test(id)) throw new Error(`agent-board new failed (${r.code}): ${r.output.trim()}`);
    this.ids.push(id);
    return id;
  }

  record(id) {
    const all = JSON.parse(this.cli(['ls', '--json']));
    const rec = all.find((s) => s.id === id);
    if (!rec) throw new Error(`session ${id} not in ls --json`);
    return rec;
  }

  attach(id, { cols = 200, rows = 50 } = {}) {
    return new PtyClient(NODE, [BIN, 'attach', id], { cols, rows, env: this.env });
  }

  peek(id, scrollback = 0) {
    return this.cli(['peek', id, '--scrollback', String(scrollback)]);
  }

  /** rm --force every session we made; then SIGKILL whatever host.json still names. */
  async removeAll() {
    const ids = this.ids.splice(0);
    const pids = [];
    for (const id of ids) {
      try {
        const rec = JSON.parse(fs.readFileSync(path.join(this.home, 'sessions', id, 'host.json'), 'utf8'));
        if (rec.childPid) pids.push(-rec.childPid, rec.childPid);
        if (rec.runnerPid) pids.push(rec.runnerPid);
      } catch {
        // no host file
      }
    }
    await Promise.all(
      ids.map(
        (id) =>
          new Promise((resolve) => {
            execFile(NODE, [BIN, 'rm', '--force', id], { env: this.env, timeout: 15_000 }, (err, _out, stderr) => {
              if (err) process.stderr.write(`bench cleanup: agent-board rm --force ${id}: ${String(stderr).trim() || err.message}\n`);
              resolve();
            });
          }),
      ),
    );
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  }
}

// ---- tmux --------------------------------------------------------------------

/** One private tmux server (`tmux -L <name> -f /dev/null`), sockets under our temp dir. */
export class Tmux {
  constructor(tmpdir, cleanup, tag) {
    this.name = `ab-bench-${process.pid}-${tag}-${crypto.randomBytes(3).toString('hex')}`;
    this.env = baseEnv({ TMUX_TMPDIR: tmpdir });
    this.started = false;
    cleanup.add(`tmux server ${this.name}`, () => this.killServer());
  }

  run(args, timeout = 10_000) {
    const r = spawnSync(TMUX, ['-L', this.name, '-f', '/dev/null', ...args], { env: this.env, encoding: 'utf8', timeout });
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || '').trim()}`);
    return r.stdout;
  }

  /** A detached session of cols x rows running `command`; no status line, history as agent-board's default. */
  newSession(name, command, { cols = 200, rows = 50, history = 5000, cwd = ROOT } = {}) {
    const shellCmd = command.map(shQuote).join(' ');
    const opts = ['set', '-g', 'history-limit', String(history), ';', 'set', '-g', 'status', 'off', ';'];
    this.run([...(this.started ? [] : ['start-server', ';']), ...opts, 'new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), '-c', cwd, shellCmd]);
    this.started = true;
    return name;
  }

  serverPid() {
    return Number(this.run(['display-message', '-p', '#{pid}']).trim());
  }

  attach(session, { cols = 200, rows = 50 } = {}) {
    return new PtyClient(TMUX, ['-L', this.name, '-f', '/dev/null', 'attach-session', '-t', session], { cols, rows, env: this.env });
  }

  capture(session) {
    return this.run(['capture-pane', '-p', '-t', session]);
  }

  /** Always tried: a start that failed half-way may still have left a server. */
  killServer() {
    this.started = false;
    spawnSync(TMUX, ['-L', this.name, '-f', '/dev/null', 'kill-server'], { env: this.env, timeout: 5000 });
  }
}

export function shQuote(s) {
  return /^[A-Za-z0-9_./=:,@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// ---- misc ------------------------------------------------------------------

export function makeTempDir(cleanup) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-bench-'));
  fs.chmodSync(dir, 0o700);
  cleanup.add(`remove ${dir}`, () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** VmRSS of a process in MiB. */
export function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) / 1024;
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** Times a command to its exit, n times; returns the samples in ms. */
export function timeRuns(file, args, n, env = baseEnv()) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    const r = spawnSync(file, args, { env, stdio: 'ignore', timeout: 20_000 });
    const t1 = now();
    if (r.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${r.status ?? r.signal})`);
    out.push(t1 - t0);
  }
  return out;
}

export function tmuxVersion() {
  const r = spawnSync(TMUX, ['-V'], { encoding: 'utf8' });
  return (r.stdout || '').trim();
}

/** Polls fn until it returns something truthy; resolves with that. */
export async function waitUntil(what, fn, timeoutMs = 10_000, everyMs = 50) {
  const end = now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
