// The board with 100 sessions, side by side with tmux holding 100 windows.
//
// (a) Render time per update, three ways:
//   1. in-process: the real <Board/> drawn by Ink (same render options as the
//      board) into a fake 200x50 stdout, fed by a fake feed of 100 sessions;
//      first each update gives one visible session a new last line and
//      activity stamp, then each update gives every session a new one, and we
//      time from the feed's notification to the frame that shows it being
//      written (React render and commit, Yoga layout, Ink's output), plus
//      Ink's own renderTime, the CPU, the rows React rendered and the rows of
//      Ink's frame built afresh per update. tmux's counterpart is its server's
//      CPU time per redraw of a changed pane line (there is no way to time
//      tmux's redraw from the outside otherwise). It starts once the 100
//      runners are done starting (runnersSettle), and says what they used
//      meanwhile.
//   2. end to end: the real board in a node-pty at 200x50 against 100 real
//      sessions; a session's program prints a line (SIGUSR1 to a shell loop)
//      and we time until the line is on the board's terminal output. The
//      selected session's line comes through the preview (live stream); an
//      unselected row's line is pushed by its runner on the board's status
//      link (the screen's last line, within a frame of the output). tmux: the
//      same program in the window a tmux client shows, time until the line is
//      on the client's output; both ratios are to that pane.
//   3. rename: from `agent-board rename` returning to the new name on the
//      board, against `tmux rename-window` returning to the new name in the
//      client's status line.
// (b) Idle CPU: the board with 100 idle sessions, 10 s after it settles, twice:
//   as it is (rows of sessions that printed in the last minute show their age
//   in seconds, so it repaints once a second), then with nothing on screen
//   that can change (a filter keeps the sessions that never printed, once all
//   are a minute old); the second is the headline. tmux: an attached client
//   plus the server with 100 idle windows, over the same windows. On-CPU time
//   from /proc/<pid>/task/*/schedstat (nanoseconds; the utime+stime ticks of
//   /proc/<pid>/stat are reported alongside). Every session is removed at the
//   end (SIGKILL of the runners and programs host.json names, and of anything
//   else whose environment names the benchmark's home), also when interrupted.
//
// Parts: bench/board-inprocess.mjs draws the board in-process for (a1); bench/board-home.mjs makes the
// 100 sessions in a home of their own, reads processes' CPU and removes everything at the end;
// bench/board-results.mjs turns the measurements into result records; this file runs (a2), (a3)
// and (b).
import { BIN, NODE, PtyClient, now, percentile, sleep } from './lib.mjs';
import { BATCH, BoardHome, cpuDelta, cpuOf, sigScript } from './board-home.mjs';
import { INPROC_UPDATES, INPROC_WARMUP, inProcessRender } from './board-inprocess.mjs';
import { boardResults } from './board-results.mjs';

const SESSIONS = 100;
/** Sessions whose program prints a numbered line on SIGUSR1 (the first ones created: at the top of the list). */
const SIG_SESSIONS = 10;
const COLS = 200;
const ROWS = 50;
const PREVIEW_SAMPLES = 30;
/** Between samples: the board's follow-up renders are done by then. */
const SAMPLE_GAP_MS = 200;
/** A row's target is a p99: 100 samples make it the 99th (nearest rank), where of 9 it was the slowest. */
const ROW_SAMPLES = 100;
const RENAME_SAMPLES = 8;
const IDLE_MS = 10_000;
/** The longest we wait for the sessions' ages to read in minutes before the idle window. */
const IDLE_AGE_WAIT_MAX_MS = 40_000;

/** Node flags for the board process alone, e.g. BENCH_BOARD_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it. */
const BOARD_NODE_ARGS = (process.env.BENCH_BOARD_NODE_ARGS ?? '').split(' ').filter(Boolean);

const pct = (ms, windowMs) => (100 * ms) / windowMs;
const fx = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const stats = (xs) => ({ n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });

/**
 * The runners' start-up work (each reclaims what its start grew after RECLAIM_QUIET_MS, 5 s, of
 * quiet) is over once all of them together use less than this share of a core over a second:
 * 100 idle runners use about 5 % (part (b) says). (a1) timed while 100 runners were starting
 * measured their start-up as much as the board (p99 5.7 ms, 2.0 to 2.6 ms once they are idle).
 */
const RUNNERS_SETTLED_PCT = 10;
const RUNNERS_SETTLE_MAX_MS = 30_000;

/** Waits until the runners are idle (or RUNNERS_SETTLE_MAX_MS); how long it took, and their last second's CPU. */
async function runnersSettle(pids) {
  const t0 = now();
  for (;;) {
    const a = cpuOf(pids);
    const w = now();
    await sleep(1000);
    const p = pct(cpuDelta(a, cpuOf(pids)).ms, now() - w);
    if (p < RUNNERS_SETTLED_PCT || now() - t0 > RUNNERS_SETTLE_MAX_MS) return { waitedMs: now() - t0, pct: p };
  }
}

// ---- (a2, a3) end to end -----------------------------------------------------------

/** Signals a program and times until its next MARK line is on `client`'s output. */
async function markLatency(client, pid, tag, counter) {
  const n = ++counter[tag];
  const seen = client.waitForText(`MARK-${tag}-${n}`, 5000);
  const t0 = now();
  process.kill(pid, 'SIGUSR1');
  return (await seen) - t0;
}

/** Runs a rename command; times from its return to the name on `client`'s output. */
async function renameLatency(client, name, run) {
  const seen = client.waitForText(name, 5000);
  const c0 = now();
  await run();
  const t0 = now();
  const t1 = await seen;
  return { ms: Math.max(0, t1 - t0), commandMs: t0 - c0, beforeReturn: t1 < t0 };
}

function tmuxCommand(args) {
  return args.flatMap((a, i) => (i ? [';', ...a] : a));
}

// ---- the benchmark -----------------------------------------------------------------

export async function benchBoard({ tmux, log }) {
  const home = new BoardHome();
  let board = null;
  try {
    // 100 sessions: SIG_SESSIONS print on a signal, the rest sleep. BATCH at a time.
    const t0 = now();
    const specs = [
      ...Array.from({ length: SIG_SESSIONS }, (_, i) => ({ name: `sig-${i}`, command: ['sh', '-c', sigScript(`s${i}`)] })),
      ...Array.from({ length: SESSIONS - SIG_SESSIONS }, (_, i) => ({ name: `idle-${String(i).padStart(2, '0')}`, command: ['sleep', '600'] })),
    ];
    await home.create(specs.slice(0, SIG_SESSIONS)); // first: the oldest, so at the top of the list
    await home.create(specs.slice(SIG_SESSIONS));
    const list = await home.list();
    if (list.length !== SESSIONS || list.some((s) => s.status !== 'running')) throw new Error(`expected ${SESSIONS} running sessions, ls shows ${list.length}`);
    const sigs = list.filter((s) => s.name.startsWith('sig-'));
    if (list[0].name !== sigs[0].name) throw new Error(`the first session is ${list[0].name}, not a sig- one`);
    const youngest = Math.max(...list.map((s) => Date.parse(s.createdAt)));
    const oldest = Math.min(...list.map((s) => Date.parse(s.createdAt)));
    log(`(a) ${SESSIONS} sessions started in ${((now() - t0) / 1000).toFixed(1)} s (${BATCH} at a time)`);

    // (a1) in-process, with a fake feed (the sessions above just age meanwhile), once the runners'
    // start-up work is done: the render beside 100 idle sessions, as a user's board draws.
    const reactBuild = (process.env.NODE_ENV ?? 'production') === 'production' ? 'production' : 'development';
    const runnerPids = list.map((s) => s.runnerPid).filter(Boolean);
    const settled = await runnersSettle(runnerPids);
    log(`(a1) the runners settled in ${fx(settled.waitedMs / 1000)} s (their CPU over the last second: ${fx(settled.pct)} % of a core, all ${runnerPids.length} together)`);
    const r1 = cpuOf(runnerPids);
    const w1 = now();
    const inproc = await inProcessRender({ sessions: SESSIONS, cols: COLS, rows: ROWS });
    const inprocRunnersPct = pct(cpuDelta(r1, cpuOf(runnerPids)).ms, now() - w1);
    log(`(a1) the runners meanwhile: ${fx(inprocRunnersPct, 2)} % of a core; ${inproc.helperThreads}`);
    const describeInproc = (r, what) => {
      const l = stats(r.latencies);
      const t = stats(r.renderTimes);
      log(
        `(a1) in-process, ${what}, ${INPROC_UPDATES} updates after ${INPROC_WARMUP} untimed: update to frame written p50 ${fx(l.p50, 2)} ms, p99 ${fx(l.p99, 2)} ms, max ${fx(l.max, 2)} ms (the first, cold: ${fx(r.first, 2)} ms); ` +
          `Ink renderTime p50 ${fx(t.p50, 2)} ms, p99 ${fx(t.p99, 2)} ms; per update ${fx(r.rendersPerUpdate, 2)} draws, ${fx(r.rowRendersPerUpdate, 1)} rows rendered, ` +
          `${fx(r.frameRowsBuiltPerUpdate, 1)} frame rows built (of ${ROWS - 1}), ${fx(r.cpuMsPerUpdate, 2)} ms CPU`,
      );
      return { lat: l, rt: t };
    };
    const { lat, rt } = describeInproc(inproc.one, 'one row changing');
    const { lat: latAll, rt: rtAll } = describeInproc(inproc.all, 'every row changing');
    describeInproc(inproc.preview, "the preview alone changing (the selected session's screen scrolled by a line)");
    log(`(a1) ${fx(inproc.bytesPerWrite / 1024, 1)} KiB per write to the terminal; frame cache ${inproc.frameCache ? 'on' : 'OFF'}; React ${reactBuild} build (as the board command loads it)`);

    // tmux: 100 windows in one session, window 0 the same printing loop, the status line on (the default).
    tmux.run(tmuxCommand([
      ['new-session', '-d', '-s', 'board', '-x', String(COLS), '-y', String(ROWS), 'sh', '-c', sigScript('t0')],
      ...Array.from({ length: SESSIONS - 1 }, () => ['new-window', '-d', '-t', 'board', 'sleep', '600']),
    ]));
    tmux.started = true;
    const windows = tmux.run(['list-windows', '-t', 'board', '-F', '#{window_index}']).trim().split('\n').length;
    if (windows !== SESSIONS) throw new Error(`tmux has ${windows} windows, not ${SESSIONS}`);
    const tmuxSigPid = Number(tmux.run(['display-message', '-p', '-t', 'board:0', '#{pane_pid}']).trim());
    const serverPid = tmux.serverPid();

    // The board, at 200x50, selecting the first session (its screen in the preview).
    const tagOf = (s) => `s${s.name.slice('sig-'.length)}`;
    board = new PtyClient(NODE, [...BOARD_NODE_ARGS, BIN], { cols: COLS, rows: ROWS, env: home.env });
    await board.waitForText(`── ${sigs[0].name} (`, 15_000); // the preview title: name (state) size
    await board.waitForText(`READY-${tagOf(sigs[0])}`, 5000).catch(() => {});
    await board.settle(300, 3000);
    const client = tmux.attach('board', { cols: COLS, rows: ROWS });
    await client.waitForText('READY-t0', 5000);
    await client.settle(200, 2000);

    // (a2) a line from the selected session: the board's preview vs the tmux pane.
    const counter = { t0: 0 };
    for (const s of sigs) counter[tagOf(s)] = 0;
    const preview = [];
    const pane = [];
    const bcpu0 = cpuOf([board.pid]);
    for (let i = 0; i < PREVIEW_SAMPLES; i++) {
      preview.push(await markLatency(board, sigs[0].childPid, tagOf(sigs[0]), counter));
      await sleep(SAMPLE_GAP_MS);
    }
    const bcpu = cpuDelta(bcpu0, cpuOf([board.pid]));
    const tcpu0 = cpuOf([serverPid, client.pid]);
    const scpu0 = cpuOf([serverPid]);
    for (let i = 0; i < PREVIEW_SAMPLES; i++) {
      pane.push(await markLatency(client, tmuxSigPid, 't0', counter));
      await sleep(SAMPLE_GAP_MS);
    }
    const tcpu = cpuDelta(tcpu0, cpuOf([serverPid, client.pid]));
    const scpu = cpuDelta(scpu0, cpuOf([serverPid]));
    // A row's last line (an unselected session): pushed by its runner on the status link within a frame of the output.
    const rowLat = [];
    for (let i = 0; i < ROW_SAMPLES; i++) {
      const s = sigs[1 + (i % (sigs.length - 1))];
      rowLat.push(await markLatency(board, s.childPid, tagOf(s), counter));
      await sleep(SAMPLE_GAP_MS);
    }
    const pv = stats(preview);
    const pn = stats(pane);
    const rw = stats(rowLat);
    const boardCpuPerUpdate = bcpu.ms / PREVIEW_SAMPLES;
    const tmuxCpuPerUpdate = tcpu.ms / PREVIEW_SAMPLES;
    const serverCpuPerUpdate = scpu.ms / PREVIEW_SAMPLES;
    log(
      `(a2) a printed line on screen: board preview p50 ${fx(pv.p50)} ms, p99 ${fx(pv.p99)} ms; tmux pane p50 ${fx(pn.p50)} ms, p99 ${fx(pn.p99)} ms; ` +
        `board row (pushed on the status link) p50 ${fx(rw.p50)} ms, p99 ${fx(rw.p99)} ms; ratios to the tmux pane: preview ${fx(pv.p50 / pn.p50, 2)}, row ${fx(rw.p50 / pn.p50, 2)}`,
    );
    log(
      `(a2) CPU per update (every ${SAMPLE_GAP_MS} ms or so, idle work included): board process ${fx(boardCpuPerUpdate, 2)} ms; tmux server ${fx(serverCpuPerUpdate, 3)} ms, server + client ${fx(tmuxCpuPerUpdate, 3)} ms`,
    );

    // (a3) rename: from the command's return to the new name on screen.
    const target = list[11];
    const abRename = [];
    const tmRename = [];
    for (let i = 0; i < RENAME_SAMPLES; i++) {
      const name = `rn-${i}-ab`;
      abRename.push(await renameLatency(board, name, () => home.cli(['rename', target.id, name])));
      const tname = `rn-${i}-tm`;
      tmRename.push(await renameLatency(client, tname, async () => tmux.run(['rename-window', '-t', 'board:0', tname])));
      await sleep(SAMPLE_GAP_MS);
    }
    const ar = stats(abRename.map((r) => r.ms));
    const tr = stats(tmRename.map((r) => r.ms));
    const arCmd = percentile(abRename.map((r) => r.commandMs), 50);
    const trCmd = percentile(tmRename.map((r) => r.commandMs), 50);
    log(
      `(a3) rename on screen after the command returned: board p50 ${fx(ar.p50)} ms, p99 ${fx(ar.p99)} ms (agent-board rename itself ${fx(arCmd)} ms); ` +
        `tmux status line p50 ${fx(tr.p50)} ms, p99 ${fx(tr.p99)} ms (tmux rename-window ${fx(trCmd)} ms)`,
    );

    // (b) idle, twice, 10 s each after settling. First as the board is: the rows of sessions that printed
    // in the last minute show their age in seconds, so the board repaints once a second. Then with nothing
    // on screen that can change: a filter ("idle-") keeps the sessions that never printed, once every
    // session is a minute old (its age then reads "1m" for a while).
    const idleWindow = async () => {
      await Promise.all([board.settle(500, 3000), client.settle(300, 2000)]);
      const b0 = cpuOf([board.pid]);
      const r0 = cpuOf(runnerPids);
      const tm0 = cpuOf([serverPid, client.pid]);
      const bytes0 = board.bytes;
      const tbytes0 = client.bytes;
      const w0 = now();
      await sleep(IDLE_MS);
      const windowMs = now() - w0;
      const b = cpuDelta(b0, cpuOf([board.pid]));
      const r = cpuDelta(r0, cpuOf(runnerPids));
      const t = cpuDelta(tm0, cpuOf([serverPid, client.pid]));
      return { windowMs, board: b, runners: r, tmux: t, boardBytes: board.bytes - bytes0, tmuxBytes: client.bytes - tbytes0, boardPct: pct(b.ms, windowMs), tmuxPct: pct(t.ms, windowMs), runnersPct: pct(r.ms, windowMs) };
    };
    const describeIdle = (w, what) =>
      `(b) idle ${(w.windowMs / 1000).toFixed(1)} s, ${what}: board process ${fx(w.board.ms)} ms CPU (${fx(w.boardPct, 2)} %; stat utime+stime ${fx(w.board.statMs, 0)} ms), wrote ${w.boardBytes} bytes; ` +
      `${runnerPids.length} runners together ${fx(w.runners.ms)} ms (${fx(w.runnersPct, 2)} %); tmux server + client ${fx(w.tmux.ms)} ms (${fx(w.tmuxPct, 2)} %; stat ${fx(w.tmux.statMs, 0)} ms), wrote ${w.tmuxBytes} bytes`;
    const ticking = await idleWindow();
    log(describeIdle(ticking, 'ages of recently active rows ticking'));

    const filtered = board.waitForText(`filter "idle-" `, 5000);
    board.write('/');
    await sleep(50);
    board.write('idle-');
    await filtered;
    const kept = board.waitForText('q quit', 5000); // the usual footer again: the filter is kept
    board.write('\r');
    await kept;
    const wait = youngest + 61_000 - Date.now();
    const steady = wait <= IDLE_AGE_WAIT_MAX_MS && Date.now() + Math.max(0, wait) + IDLE_MS + 3000 < oldest + 120_000;
    if (wait > 0 && wait <= IDLE_AGE_WAIT_MAX_MS) {
      log(`(b) waiting ${(wait / 1000).toFixed(1)} s for every session to be a minute old`);
      await sleep(wait);
    }
    const still = await idleWindow();
    const stillWhat = steady ? `nothing on screen changing (filter "idle-", ${SESSIONS - SIG_SESSIONS - 1} of ${SESSIONS} shown, all aged 1m; one was renamed away)` : 'filter "idle-" (ages could not be made steady in time)';
    log(describeIdle(still, stillWhat));
    const bPct = still.boardPct;
    const tPct = still.tmuxPct;

    return boardResults({ lat, rt, inproc, reactBuild, serverCpuPerUpdate, tmuxCpuPerUpdate, boardCpuPerUpdate, latAll, rtAll, pv, pn, preview, pane, rw, rowLat, ar, tr, arCmd, trCmd, abRename, tmRename, still, stillWhat, steady, ticking, runnerPids, bPct, tPct, previewSamples: PREVIEW_SAMPLES, rows: ROWS });
  } finally {
    if (board) {
      board.write('q');
      await board.waitExit(2000);
    }
    home.dispose();
  }
}
