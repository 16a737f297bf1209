// (g) Start-up: the commands the agents run on every turn (send, hook, chat
// post) and --version, each from spawn to exit, side by side with a bare
// `node -e 0` in the same rounds (interleaved, so a busy machine weighs on
// both alike). What is ours is the difference: node's own start is the floor.
// Each command twice: its real run (start-up and its work: send waits for
// the prompt typed, hook for the runner's answer, chat post for its fsync),
// and with --help, which loads and parses exactly what the command does and
// stops there: its start-up alone. What is ours beyond node is the median of
// the rounds' differences (command minus node, in the same round).
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN, NODE, median, now } from './lib.mjs';

const ROUNDS = 20;
/** `new` starts a session each time (removed at the end). */
const NEW_ROUNDS = 8;
const SINK = ['sh', '-c', 'stty raw -echo; exec cat > /dev/null'];
/** Ours beyond node's start, per command: the target for the hot commands. */
const TARGET_MS = 15;

function timeOnce(args, env) {
  const t0 = now();
  const r = spawnSync(NODE, args, { env, stdio: 'ignore', timeout: 20_000 });
  const ms = now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed (${r.status ?? r.signal})`);
  return ms;
}

export async function benchStartup({ ab, home, log }) {
  const id = await ab.newSession('bench-startup', SINK, { cols: 80, rows: 24 });
  const rec = ab.record(id);
  const socket = path.join(home, 'sessions', id, 'runner.sock');
  // As an agent runs them: inside the session (its id and socket in the environment).
  const agentEnv = { ...ab.env, AGENT_BOARD_SESSION: id, AGENT_BOARD_SOCKET: socket };
  const cases = [
    { key: 'version', what: 'agent-board --version', args: [BIN, '--version'], env: ab.env, startupOnly: true },
    { key: 'send', what: 'agent-board send --no-enter', args: [BIN, 'send', '--no-enter', id, 'hello from the bench'], env: ab.env },
    { key: 'hook', what: 'agent-board hook claude Stop', args: [BIN, 'hook', 'claude', 'Stop'], env: agentEnv },
    { key: 'chat_post', what: 'agent-board chat post', args: [BIN, 'chat', 'post', '--room', rec.room ?? 'default', 'hello from the bench'], env: agentEnv },
    ...['send', 'hook', 'chat post', 'attach'].map((c) => ({
      key: `${c.replace(' ', '_')}_help`,
      what: `agent-board ${c} --help (start-up only)`,
      args: [BIN, ...c.split(' '), '--help'],
      env: agentEnv,
      startupOnly: true,
    })),
  ];
  const node = [];
  const runs = cases.map(() => []);
  // One warm-up of each (page cache), then interleaved rounds.
  timeOnce(['-e', '0'], ab.env);
  for (const c of cases) timeOnce(c.args, c.env);
  for (let i = 0; i < ROUNDS; i++) {
    node.push(timeOnce(['-e', '0'], ab.env));
    cases.forEach((c, j) => runs[j].push(timeOnce(c.args, c.env)));
  }
  // `new`: from spawn until it returns, which is when the runner it started answers (its start is on that path).
  const newRuns = [];
  for (let i = 0; i < NEW_ROUNDS; i++) {
    const t0 = now();
    const r = spawnSync(NODE, [BIN, 'new', '--name', `bench-new-${i}`, '--', ...SINK], { env: ab.env, encoding: 'utf8', timeout: 20_000 });
    newRuns.push(now() - t0);
    const newId = r.stdout.trim().split('\n').pop();
    if (r.status !== 0 || !newId) throw new Error(`agent-board new failed (${r.status ?? r.signal}): ${r.stderr.trim()}`);
    ab.ids.push(newId); // removed with the benchmark's sessions
  }
  const nodeMs = median(node);
  log(`(g) node -e 0: median ${nodeMs.toFixed(1)} ms, min ${Math.min(...node).toFixed(1)} ms (${ROUNDS} rounds, interleaved)`);
  const newMs = median(newRuns);
  log(`(g) agent-board new: median ${newMs.toFixed(1)} ms, min ${Math.min(...newRuns).toFixed(1)} ms (${NEW_ROUNDS} sessions started); beyond node -e 0 ${(newMs - nodeMs).toFixed(1)} ms`);
  const newResult = {
    key: 'startup_new',
    name: 'agent-board new, spawn to the runner serving (ms)',
    unit: 'ms',
    agentBoard: newMs,
    tmux: nodeMs,
    versus: 'node -e 0',
    ratio: newMs / nodeMs,
    target: 'info: two node starts and a PTY spawn',
    pass: null,
    extra: { runs: newRuns },
  };
  return [...cases.map((c, j) => {
    const ms = median(runs[j]);
    // Ours beyond node: the median of each round's difference, so a busy spell weighs on both sides of it.
    const beyond = median(runs[j].map((x, i) => x - node[i]));
    log(`(g) ${c.what}: median ${ms.toFixed(1)} ms, min ${Math.min(...runs[j]).toFixed(1)} ms; beyond node -e 0 ${beyond.toFixed(1)} ms`);
    return {
      key: `startup_${c.key}`,
      name: `${c.what}, spawn to exit (ms)`,
      unit: 'ms',
      agentBoard: ms,
      tmux: nodeMs,
      versus: 'node -e 0',
      ratio: ms / nodeMs,
      target: c.startupOnly ? `within ${TARGET_MS} ms of node -e 0` : 'info: start-up and its work',
      pass: c.startupOnly ? beyond <= TARGET_MS : null,
      extra: { runs: runs[j], nodeRuns: node, beyondNodeMs: beyond },
      note: `beyond node -e 0: ${beyond.toFixed(1)} ms`,
    };
  }), newResult];
}
