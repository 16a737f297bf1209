// The board benchmark's result records (bench/board.mjs measures, this says what the numbers
// are, their targets and notes): one record per line of the summary table.
import { INPROC_UPDATES, INPROC_WARMUP } from './board-inprocess.mjs';

const r3 = (x) => Number(x.toFixed(3));
const fx = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const perUpdate = (r) => ({ rendersPerUpdate: r.rendersPerUpdate, rowRendersPerUpdate: r.rowRendersPerUpdate, frameRowsBuiltPerUpdate: r.frameRowsBuiltPerUpdate, cpuMsPerUpdate: r.cpuMsPerUpdate });

/** What the board benchmark measured, as result records; `m` holds every measurement by name. */
export function boardResults(m) {
  const { lat, rt, inproc, reactBuild, serverCpuPerUpdate, tmuxCpuPerUpdate, boardCpuPerUpdate, latAll, rtAll, pv, pn, preview, pane, rw, rowLat, ar, tr, arCmd, trCmd, abRename, tmRename, still, stillWhat, steady, ticking, runnerPids, bPct, tPct, previewSamples: PREVIEW_SAMPLES, rows: ROWS } = m;
return [
    {
      key: 'board_render',
      name: 'board render per update, 100 sessions, one row changed, p50 (ms)',
      unit: 'ms',
      agentBoard: lat.p50,
      tmux: serverCpuPerUpdate,
      ratio: lat.p50 / serverCpuPerUpdate,
      target: 'agent-board p99 < 5 ms',
      pass: lat.p99 < 5,
      extra: {
        inProcess: { latency: lat, inkRenderTime: rt, ...perUpdate(inproc.one), bytesPerWrite: inproc.bytesPerWrite, frameCache: inproc.frameCache, helperThreads: inproc.helperThreads, reactBuild },
        tmuxServerCpuMsPerUpdate: serverCpuPerUpdate,
        tmuxServerAndClientCpuMsPerUpdate: tmuxCpuPerUpdate,
        boardProcessCpuMsPerUpdate: boardCpuPerUpdate,
      },
      note:
        `agent-board: the real <Board/> in-process (Ink, 200x50, 100 sessions, fake feed, React ${reactBuild} build), one visible row's line changed, feed notification to the frame written (${INPROC_UPDATES} updates after ${INPROC_WARMUP} untimed; the first, cold: ${fx(inproc.one.first, 2)} ms): p99 ${fx(lat.p99, 2)} ms; ` +
        `Ink renderTime p50 ${fx(rt.p50, 2)}/p99 ${fx(rt.p99, 2)} ms; per update ${fx(inproc.one.rowRendersPerUpdate, 1)} rows rendered, ${fx(inproc.one.frameRowsBuiltPerUpdate, 1)} frame rows built, ${fx(inproc.one.cpuMsPerUpdate, 1)} ms CPU. ` +
        `tmux: its server's CPU time per redraw of a changed pane line (mean of ${PREVIEW_SAMPLES}, schedstat), for want of a way to time its redraw from outside. ` +
        `${inproc.helperThreads} (AGENT_BOARD_HELPER_THREADS=normal to compare). ` +
        `End to end, the board process spent ${fx(boardCpuPerUpdate, 1)} ms CPU per preview update`,
    },
    {
      key: 'board_render_all',
      name: 'board render per update, 100 sessions, every row changed, p50 (ms)',
      unit: 'ms',
      agentBoard: latAll.p50,
      tmux: serverCpuPerUpdate,
      ratio: latAll.p50 / serverCpuPerUpdate,
      target: 'agent-board p99 < 16 ms',
      pass: latAll.p99 < 16,
      extra: { inProcess: { latency: latAll, inkRenderTime: rtAll, ...perUpdate(inproc.all) } },
      note:
        `as above, with every session's line changed in the one update (all ${ROWS - 3} rows on screen drawn again): p99 ${fx(latAll.p99, 2)} ms; ` +
        `per update ${fx(inproc.all.rowRendersPerUpdate, 1)} rows rendered, ${fx(inproc.all.frameRowsBuiltPerUpdate, 1)} frame rows built, ${fx(inproc.all.cpuMsPerUpdate, 1)} ms CPU`,
    },
    {
      key: 'board_update_latency',
      name: 'board: printed line on the preview, 100 sessions, p50 (ms)',
      unit: 'ms',
      agentBoard: pv.p50,
      tmux: pn.p50,
      ratio: pv.p50 / pn.p50,
      target: 'agent-board p50 < 20 ms',
      pass: pv.p50 < 20,
      extra: { preview: pv, tmuxPane: pn, previewSamples: preview, paneSamples: pane },
      note:
        `SIGUSR1 to a session's program, which prints a line, until the line is on the terminal: the real board's preview of the selected session (p99 ${fx(pv.p99)} ms) ` +
        `vs a tmux client showing that window (p99 ${fx(pn.p99)} ms)`,
    },
    {
      key: 'board_row_latency',
      name: "board: printed line on an unselected session's row, 100 sessions, p50 (ms)",
      unit: 'ms',
      agentBoard: rw.p50,
      tmux: pn.p50,
      ratio: rw.p50 / pn.p50,
      target: 'agent-board p99 < 16 ms (one frame)',
      pass: rw.p99 < 16,
      extra: { row: rw, tmuxPane: pn, rowSamples: rowLat },
      note:
        `the same, for a session the board is not previewing: its row's last line, pushed by the runner on the board's status link (p99 of ${rw.n} samples ${fx(rw.p99)} ms), ` +
        `vs the tmux pane (there is no row in tmux: the pane is the nearest it shows; p99 ${fx(pn.p99)} ms)`,
    },
    {
      key: 'board_rename_latency',
      name: 'board: rename on screen after the command, p50 (ms)',
      unit: 'ms',
      agentBoard: ar.p50,
      tmux: tr.p50,
      ratio: ar.p50 / Math.max(tr.p50, 0.001),
      target: 'info',
      pass: null,
      extra: { agentBoard: ar, tmux: tr, agentBoardCommandMs: arCmd, tmuxCommandMs: trCmd, samples: { agentBoard: abRename, tmux: tmRename } },
      note: `from the command returning to the new name on screen: the board's row vs tmux's status line (p99 ${fx(ar.p99)} vs ${fx(tr.p99)} ms); the commands themselves take ${fx(arCmd)} ms (agent-board rename, node startup included) and ${fx(trCmd)} ms (tmux rename-window)`,
    },
    {
      key: 'board_idle_cpu',
      name: 'board idle CPU, 100 sessions (% of one core)',
      unit: '%',
      agentBoard: r3(bPct),
      tmux: r3(tPct),
      ratio: bPct / Math.max(tPct, 1e-6),
      target: 'agent-board < 0.5 % (rounds to 0)',
      pass: bPct < 0.5,
      extra: { steadyAges: steady, still, ticking, runnerCount: runnerPids.length },
      note:
        `${(still.windowMs / 1000).toFixed(0)} s idle after settling, ${stillWhat}: the board process (${fx(still.board.ms)} ms CPU, ${still.boardBytes} bytes written) ` +
        `vs tmux server + attached client with 100 windows (${fx(still.tmux.ms)} ms, ${still.tmuxBytes} bytes); on-CPU time from schedstat (stat utime+stime: ${fx(still.board.statMs, 0)} vs ${fx(still.tmux.statMs, 0)} ms). ` +
        `Unfiltered, with recently active rows' ages ticking: ${fx(ticking.boardPct, 2)} % (${ticking.boardBytes} bytes). The ${runnerPids.length} runners add ${fx(still.runnersPct, 2)} % together`,
    },
  ];
}
