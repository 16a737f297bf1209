// (f) A prompt typed into a session: `agent-board send --no-enter` (journaled,
// fsynced, acked applied) against `tmux send-keys -l` (no journal, no ack),
// both as a CLI a script would run, to the point the command returns. Also,
// in-process, the durable round trip alone (connect, accepted, applied).
import path from 'node:path';
import { BIN, NODE, ROOT, median, now, percentile, timeRuns } from './lib.mjs';

const RUNS = 20;
const IN_PROCESS = 200;
const SINK = ['sh', '-c', 'stty raw -echo; exec cat > /dev/null'];

export async function benchSend({ ab, tmux, home, log }) {
  const id = await ab.newSession('bench-send', SINK, { cols: 80, rows: 24 });
  tmux.newSession('send', SINK, { cols: 80, rows: 24 });
  const abRuns = timeRuns(NODE, [BIN, 'send', '--no-enter', id, 'hello from the bench'], RUNS, ab.env);
  const tmRuns = timeRuns('/usr/bin/tmux', ['-L', tmux.name, '-f', '/dev/null', 'send-keys', '-t', 'send', '-l', 'hello from the bench'], RUNS, tmux.env);
  const abMs = median(abRuns);
  const tmMs = median(tmRuns);
  log(`(f) send CLI: agent-board p50 ${abMs.toFixed(1)} ms (p99 ${percentile(abRuns, 99).toFixed(1)}), tmux send-keys p50 ${tmMs.toFixed(1)} ms`);

  // The protocol alone, without node's start-up: one connection per prompt, as send does.
  const { sendDurable } = await import(path.join(ROOT, 'dist', 'client', 'send', 'durable-send.js'));
  const { RunnerConnection } = await import(path.join(ROOT, 'dist', 'client', 'link', 'connection.js'));
  const { socketPath } = await import(path.join(ROOT, 'dist', 'state', 'paths.js'));
  const { realClock, realScheduler } = await import(path.join(ROOT, 'dist', 'state', 'real-time.js'));
  const time = { clock: realClock, scheduler: realScheduler() };
  const sock = socketPath(home, id);
  const samples = [];
  for (let i = 0; i < IN_PROCESS; i++) {
    const t0 = now();
    const r = await sendDurable({ time, connect: () => RunnerConnection.open(sock, { client: 'bench', scheduler: time.scheduler }), text: `p${i}`, submit: false, wait: 'applied', timeoutMs: 5000 });
    if (r.status !== 'applied') throw new Error(`send ${i}: ${r.status}`);
    samples.push(now() - t0);
  }
  log(`(f) durable prompt in-process (connect, hello, accepted after fsync, applied): p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`);
  return [
    {
      key: 'send_cli',
      name: 'send a prompt from a script, to confirmed (ms)',
      unit: 'ms',
      agentBoard: abMs,
      tmux: tmMs,
      ratio: abMs / tmMs,
      target: 'info: tmux confirms nothing',
      pass: null,
      note: `in-process durable round trip p50 ${percentile(samples, 50).toFixed(2)} ms; tmux send-keys has no ack, journal or dedup`,
    },
  ];
}
