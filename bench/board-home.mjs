// The board benchmark's sessions (bench/board.mjs): 100 of them in a home of their own, made with the
// real CLI, the CPU of processes read from /proc, and every runner and program SIGKILLed at the end
// (also when the benchmark is interrupted).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, NODE, baseEnv, cpuSeconds } from './lib.mjs';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** Sessions created at a time (`agent-board new` commands in flight). */
export const BATCH = 10;

/** A shell loop that prints MARK-<tag>-<n> on each SIGUSR1 (dash: a trapped signal ends the wait). */
export function sigScript(tag) {
  return `i=0; trap 'i=$((i+1)); echo MARK-${tag}-$i' USR1; echo READY-${tag}; while :; do sleep 600 & p=$!; wait $p; kill $p 2>/dev/null; done`;
}

// ---- process CPU -----------------------------------------------------------

/** On-CPU nanoseconds of every thread of a process (schedstat), or NaN. */
function cpuNs(pid) {
  try {
    let total = 0;
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    }
    return total;
  } catch {
    return NaN;
  }
}

/** CPU of a set of processes: schedstat ns and stat seconds, summed. */
export function cpuOf(pids) {
  return { ns: pids.reduce((n, p) => n + cpuNs(p), 0), s: pids.reduce((n, p) => n + cpuSeconds(p), 0) };
}

export function cpuDelta(a, b) {
  return { ms: (b.ns - a.ns) / 1e6, statMs: (b.s - a.s) * 1000 };
}

// ---- 100 sessions in a home of their own ------------------------------------

/** SIGKILL a process and, when it leads one, its process group (a session's program and what it started). */
function killHard(pid) {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // not a group leader, or gone
    }
  }
}

/** Every process whose environment names `home` as AGENT_BOARD_HOME: runners, and the programs they started. */
function processesOfHome(home) {
  const needle = Buffer.from(`\0AGENT_BOARD_HOME=${home}\0`);
  const out = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = Buffer.concat([Buffer.from([0]), fs.readFileSync(`/proc/${name}/environ`), Buffer.from([0])]);
      if (env.indexOf(needle) >= 0) out.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

/** Every process below `root`, from the parent pids in /proc (children of the dead are reparented, so ask early). */
function descendants(root) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const todo = [root];
  while (todo.length) for (const c of children.get(todo.pop()) ?? []) out.push(c), todo.push(c);
  return out;
}

export class BoardHome {
  constructor() {
    // Not under the suite's temp dir: the suite removes that while cleaning up after a signal, and the
    // host.json files must still be there for us to find the runners.
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-bench-board-'));
    fs.chmodSync(this.dir, 0o700);
    this.env = baseEnv({ AGENT_BOARD_HOME: this.dir });
    /** CLI commands in flight (`new` of a batch, when interrupted). */
    this.children = new Set();
    // Interrupted (the suite exits from its own signal handler): stop the commands in flight and SIGKILL
    // what is there at once, then again at exit (a runner a killed `new` had already started has
    // written its pid by then), and remove the home.
    this.onSignal = () => {
      // A `new` in flight may have started a runner (detached) and that one a program: take the whole tree.
      for (const c of this.children) for (const pid of [...descendants(c.pid), c.pid]) killHard(pid);
      this.killAll(false);
    };
    this.onExit = () => this.killAll(true);
    for (const sig of SIGNALS) process.on(sig, this.onSignal);
    process.on('exit', this.onExit);
  }

  cli(args) {
    return new Promise((resolve, reject) => {
      const child = execFile(NODE, [BIN, ...args], { env: this.env, encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) => {
        this.children.delete(child);
        if (err) reject(new Error(`agent-board ${args.join(' ')} failed: ${(stderr || err.message).trim()}`));
        else resolve(stdout);
      });
      this.children.add(child);
    });
  }

  async create(specs) {
    for (let i = 0; i < specs.length; i += BATCH) {
      await Promise.all(specs.slice(i, i + BATCH).map((s) => this.cli(['new', '--name', s.name, '--', ...s.command])));
    }
  }

  async list() {
    return JSON.parse(await this.cli(['ls', '--json']));
  }

  /** SIGKILL every program (its process group) and runner the home's host.json files name; then remove the home. */
  killAll(remove) {
    const dir = path.join(this.dir, 'sessions');
    let ids = [];
    try {
      ids = fs.readdirSync(dir);
    } catch {
      // nothing made
    }
    for (const id of ids) {
      try {
        const rec = JSON.parse(fs.readFileSync(path.join(dir, id, 'host.json'), 'utf8'));
        for (const pid of [rec.childPid, rec.runnerPid]) if (pid) killHard(pid);
      } catch {
        // no host.json
      }
    }
    // What host.json does not name yet (a runner still starting when we were interrupted).
    for (const pid of processesOfHome(this.dir)) killHard(pid);
    if (remove) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  dispose() {
    for (const sig of SIGNALS) process.off(sig, this.onSignal);
    process.off('exit', this.onExit);
    this.killAll(true);
  }
}
