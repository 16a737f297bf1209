// The benchmark suite (`npm run bench`, after a build). Every benchmark runs
// agent-board and tmux side by side in the same run, prints
// `name: agent-board X, tmux Y, ratio Z (target ...)`, and the run ends with
// a summary table; results also go to bench/out/latest.json.
//
//   node bench/run.mjs                 all of them
//   node bench/run.mjs echo frame      only some (cat, echo, frame, rss, board, send, startup, usage, web, sandbox)
//
// A result whose baseline is not tmux names it (`versus`: start-up compares with a bare node, web with
// wetty, a web terminal installed by bench/web-wetty.mjs into a cache outside the repository).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEcho } from './echo.mjs';
import { benchFirstFrame } from './first-frame.mjs';
import { benchBoard } from './board.mjs';
import { AgentBoard, BIN, Cleanup, ROOT, Tmux, killAllClients, makeTempDir, now, tmuxVersion } from './lib.mjs';
import { benchRss } from './rss.mjs';
import { benchSandbox } from './sandbox.mjs';
import { benchSend } from './send.mjs';
import { benchStartup } from './startup.mjs';
import { benchThroughput } from './throughput.mjs';
import { benchUsage } from './usage.mjs';
import { benchWeb } from './web.mjs';

const BENCHES = [
  { key: 'cat', title: '(a) cat 50 MiB with a client attached', fn: benchThroughput },
  { key: 'echo', title: '(b) keystroke echo round trip', fn: benchEcho },
  { key: 'frame', title: '(c) attach to first complete frame', fn: benchFirstFrame },
  { key: 'rss', title: '(d) idle memory', fn: benchRss },
  { key: 'board', title: '(e) the board with 100 sessions: render per update, idle CPU', fn: benchBoard },
  { key: 'send', title: '(f) a prompt sent from a script', fn: benchSend },
  { key: 'startup', title: '(g) start-up of the commands agents run every turn', fn: benchStartup },
  { key: 'usage', title: '(i) usage: 50 sessions kept fresh, a 100 MiB transcript summed', fn: benchUsage },
  { key: 'web', title: '(h) agent-board web beside wetty, in headless chromium', fn: benchWeb },
  { key: 'sandbox', title: '(j) a sandboxed session against an unsandboxed one: new to running, echo, raw bwrap', fn: benchSandbox },
];

const log = (s) => process.stdout.write(`  ${s}\n`);

function fmt(x, unit) {
  if (x === null || x === undefined || Number.isNaN(x)) return '-';
  if (unit === 'ms') return `${x.toFixed(x < 10 ? 3 : 1)} ms`;
  if (unit === 's') return `${x.toFixed(2)} s`;
  if (unit === 'MiB') return `${x.toFixed(1)} MiB`;
  if (unit === 'KiB') return `${x.toFixed(1)} KiB`;
  if (unit === '%') return `${x.toFixed(3)} %`;
  return String(x);
}

function resultLine(r) {
  return `${r.name}: agent-board ${fmt(r.agentBoard, r.unit)}, ${r.versus ?? 'tmux'} ${fmt(r.tmux, r.unit)}, ratio ${r.ratio.toFixed(2)} (target ${r.target})`;
}

const loadText = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !BENCHES.some((b) => b.key === w));
  if (unknown.length) {
    process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHES.map((b) => b.key).join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  if (!fs.existsSync(path.join(ROOT, 'dist', 'bundle', 'main.js'))) {
    process.stderr.write('dist/ is missing: run npm run build (npm run bench does it for you)\n');
    process.exitCode = 2;
    return;
  }
  const selected = wanted.length ? BENCHES.filter((b) => wanted.includes(b.key)) : BENCHES;

  const global = new Cleanup();
  let current = null; // the running benchmark's own cleanup
  let stopping = false;
  const onSignal = (sig) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\nbench: ${sig}, cleaning up ...\n`);
    void (async () => {
      await current?.run();
      await global.run();
      process.exit(130);
    })();
    return;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  const results = [];
  const failures = [];
  const started = now();
  try {
    const tmp = makeTempDir(global);
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    process.stdout.write(
      `agent-board bench: node ${process.version}, ${tmuxVersion()}, ${os.cpus().length} CPUs, ${os.platform()} ${os.release()}, load ${loadText()}\n` +
        `  AGENT_BOARD_HOME=${home}\n  cli: ${path.relative(process.cwd(), BIN) || BIN}\n\n`,
    );
    for (const b of selected) {
      if (stopping) break;
      process.stdout.write(`${b.title}\n`);
      const scope = new Cleanup();
      current = scope;
      const t0 = now();
      try {
        const ab = new AgentBoard(home, scope);
        const tmux = new Tmux(tmp, scope, b.key);
        scope.add('PTY clients', () => killAllClients());
        const rs = await b.fn({ ab, tmux, tmp, home, log });
        for (const r of rs) {
          results.push(r);
          process.stdout.write(`${resultLine(r)}\n`);
          if (r.note) process.stdout.write(`  ${r.note}\n`);
        }
      } catch (err) {
        failures.push({ key: b.key, error: err?.stack ?? String(err) });
        process.stdout.write(`  FAILED: ${err?.message ?? err}\n`);
      } finally {
        await scope.run();
        current = null;
      }
      process.stdout.write(`  (${((now() - t0) / 1000).toFixed(1)} s)\n\n`);
    }
  } finally {
    await global.run();
  }
  if (stopping) return;

  const rows = [['benchmark', 'agent-board', 'tmux', 'ratio', 'target', 'result']];
  for (const r of results) {
    rows.push([r.name, fmt(r.agentBoard, r.unit), fmt(r.tmux, r.unit) + (r.versus ? ` (${r.versus})` : ''), r.ratio.toFixed(2), r.target, r.pass === null ? 'info' : r.pass ? 'PASS' : 'MISS']);
  }
  for (const f of failures) rows.push([f.key, '-', '-', '-', '-', 'ERROR']);
  const elapsed = (now() - started) / 1000;
  process.stdout.write(`Summary (${elapsed.toFixed(1)} s, load now ${loadText()}; other work on the machine skews these)\n${table(rows)}\n`);

  const outDir = path.join(ROOT, 'bench', 'out');
  fs.mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, 'latest.json');
  const json = {
    date: new Date().toISOString(),
    loadAverageAtEnd: os.loadavg(),
    node: process.version,
    tmux: tmuxVersion(),
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    platform: `${os.platform()} ${os.release()}`,
    elapsedSeconds: elapsed,
    results,
    failures,
  };
  fs.writeFileSync(outFile, JSON.stringify(json, null, 2) + '\n');
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), outFile)}\n`);
  if (failures.length) process.exitCode = 1;
}

// node-pty can keep the process alive for a while after its last PTY closed; we are done.
main()
  .catch((err) => {
    process.stderr.write(`bench: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
