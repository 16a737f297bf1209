// The board benchmark's in-process render (part (a1) of bench/board.mjs): the real <Board/> drawn by
// Ink, with the board's render options, into a fake terminal, fed by a fake feed; each update is timed
// from the feed's notification to the frame that shows it being written.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ROOT, now, sleep } from './lib.mjs';

/**
 * Updates timed in each way: enough that the p99 is a p99 (the 297th of 300), not the slowest
 * sample, which a p99 of 60 samples is.
 */
export const INPROC_UPDATES = 300;
/**
 * Updates of each kind made first and not timed: V8 compiles the code an update runs (the
 * rows, Ink's output, React's reconciler) over the first hundred or so of them. The very first
 * takes 6 ms, as the board's first change after it starts does (reported apart); after 60, the
 * one-row p99 was still 4.4 to 4.6 ms in isolated runs, after 200 it was 2.3 to 3.4.
 */
export const INPROC_WARMUP = 200;
/** Between updates, wait for this long without a render: over Ink's hold (8 ms) and the feed's frame (16 ms), so follow-up renders are done. */
const INPROC_QUIET_MS = 30;

/** A terminal of `columns` x `rows` that counts what is written to it. */
class FakeStdout extends EventEmitter {
  isTTY = true;
  bytes = 0;
  writes = 0;
  /** Called with each write's text and the time it came. */
  onWrite = null;
  constructor(columns, rows) {
    super();
    this.columns = columns;
    this.rows = rows;
  }
  write(data, cb, cb2) {
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    this.bytes += text.length;
    this.writes++;
    this.onWrite?.(text, performance.now());
    const done = typeof cb === 'function' ? cb : cb2;
    done?.();
    return true;
  }
}

class FakeStdin extends PassThrough {
  isTTY = true;
  isRaw = false;
  setRawMode(raw) {
    this.isRaw = raw;
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
}

class FakeFeed {
  preview = null;
  subs = new Set();
  constructor(sessions) {
    this.sessions = sessions;
  }
  /** BoardFeed's change event (an Event<void>: a listener in, a Disposable out). */
  onChange = (fn) => {
    this.subs.add(fn);
    return { dispose: () => this.subs.delete(fn) };
  };
  onError() {
    return { dispose() {} };
  }
  setPreview(id) {
    const s = this.sessions.find((x) => x.id === id);
    // A full 80x24 screen of text, as a busy session would have.
    this.preview = s ? { id, cols: 80, rows: 24, lines: Array.from({ length: 24 }, (_, y) => `${s.name} line ${y} `.padEnd(72, '.')), cursorX: 0, cursorY: 23, final: false } : null;
  }
  dispose() {
    this.subs.clear();
  }
  notify() {
    for (const fn of [...this.subs]) fn();
  }
}

function fakeSession(i, at) {
  const created = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
  return {
    id: `b${String(i).padStart(7, '0')}`,
    name: `bench-${String(i).padStart(3, '0')}`,
    agent: 'shell',
    command: 'sleep',
    args: ['600'],
    cwd: '/tmp',
    createdAt: created,
    updatedAt: at,
    heartbeatAt: at,
    lastOutputAt: at,
    runnerPid: 1,
    childPid: 2,
    generation: 'g',
    status: 'running',
    cols: 80,
    rows: 24,
    exitCode: null,
    exitSignal: null,
    scrollback: 5000,
    runnerAlive: true,
    previewLine: `output of session ${i}`,
  };
}

/**
 * Renders the real <Board/> for `sessions` fake sessions into a fake `cols` x `rows` terminal and
 * times feed updates, three ways: one visible row's line changing (`one`), every session's line
 * changing at once (`all`), then the selected session's screen alone (`preview`). Resolves with the
 * samples of each.
 */
export async function inProcessRender({ sessions, cols, rows }) {
  // Ink decides at load time whether it runs under CI (then it draws nothing until exit).
  const hadCi = Object.prototype.hasOwnProperty.call(process.env, 'CI');
  const ci = process.env.CI;
  process.env.CI = 'false';
  let ink, React, Board, realTime, inkOptions, RenderCountContext, frameCache, helperThreads;
  const dist = (...p) => import(pathToFileURL(path.join(ROOT, 'dist', ...p)).href);
  try {
    // The board command loads React's production build (src/cli/commands/board.ts); measure that one.
    const savedEnv = process.env.NODE_ENV;
    process.env.NODE_ENV ??= 'production';
    ink = await import('ink');
    React = await import('react');
    ({ Board } = await dist('ui', 'Board.js'));
    ({ BOARD_INK_OPTIONS: inkOptions } = await dist('ui', 'ink', 'options.js'));
    ({ RenderCountContext } = await dist('ui', 'contexts', 'RenderCountContext.js'));
    ({ frameCache } = await dist('ui', 'ink', 'frame-cache.js'));
    realTime = await dist('state', 'real-time.js');
    helperThreads = await dist('ui', 'helper-threads.js');
    if (savedEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = savedEnv;
  } finally {
    if (hadCi) process.env.CI = ci;
    else delete process.env.CI;
  }
  // Activity ten minutes ago: the "ago" column is steady, only our updates change the screen.
  const old = new Date(Date.now() - 600_000).toISOString();
  const feed = new FakeFeed(Array.from({ length: sessions }, (_, i) => fakeSession(i, old)));
  const stdout = new FakeStdout(cols, rows);
  const stdin = new FakeStdin();
  const renderTimes = [];
  let rowRenders = 0;
  let lastRenderAt = 0;
  let waiting = null;
  stdout.onWrite = (text, t) => {
    if (waiting && text.includes(waiting.marker)) {
      const w = waiting;
      waiting = null;
      w.resolve(t);
    }
  };
  const counter = { rendered: (part) => void (part === 'row' && rowRenders++) };
  const board = React.createElement(Board, {
    feed,
    actions: {},
    time: { clock: realTime.realClock, scheduler: realTime.realScheduler() },
    newDefaults: { name: '', command: 'sh', cwd: '/tmp' },
    detachLabel: 'Ctrl-\\',
    onLeave: () => {},
  });
  const app = ink.render(React.createElement(RenderCountContext.Provider, { value: counter }, board), {
    stdin,
    stdout,
    stderr: stdout,
    exitOnCtrlC: false,
    patchConsole: false,
    ...inkOptions,
    onRender: (m) => {
      renderTimes.push(m.renderTime);
      lastRenderAt = performance.now();
    },
  });
  const seen = (marker) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`in-process: ${marker} never reached the screen`)), 5000);
      waiting = { marker, resolve: (t) => (clearTimeout(timer), resolve(t)) };
    });
  /** One update, `change(i, at)` making the i-th new session list and naming the marker to wait for; resolves with its latency once the follow-up renders are done. */
  const update = async (change, i) => {
    const marker = change(i, new Date().toISOString());
    const p = seen(marker);
    const t0 = performance.now();
    feed.notify();
    const ms = (await p) - t0;
    // Let the update's follow-up render (and Ink's throttle) finish: each update is timed on its own.
    const quietUntil = performance.now() + 1000;
    do await sleep(5);
    while (performance.now() - lastRenderAt < INPROC_QUIET_MS && performance.now() < quietUntil);
    return ms;
  };
  /** INPROC_WARMUP updates of this kind untimed (the first one's latency kept as `first`), then INPROC_UPDATES timed. */
  const phase = async (change) => {
    const first = await update(change, 0);
    for (let i = 1; i < INPROC_WARMUP; i++) await update(change, i);
    const latencies = [];
    const cpu0 = process.cpuUsage();
    const rendersBefore = renderTimes.length;
    const rows0 = rowRenders;
    const cache0 = { ...frameCache };
    const w0 = now();
    for (let i = INPROC_WARMUP; i < INPROC_WARMUP + INPROC_UPDATES; i++) latencies.push(await update(change, i));
    const wallMs = now() - w0;
    const cpu = process.cpuUsage(cpu0);
    const renders = renderTimes.slice(rendersBefore);
    return {
      latencies,
      first,
      renderTimes: renders,
      rendersPerUpdate: renders.length / INPROC_UPDATES,
      rowRendersPerUpdate: (rowRenders - rows0) / INPROC_UPDATES,
      frameRowsBuiltPerUpdate: frameCache.installed ? (frameCache.misses - cache0.misses) / INPROC_UPDATES : NaN,
      cpuMsPerUpdate: (cpu.user + cpu.system) / 1000 / INPROC_UPDATES,
      wallMs,
    };
  };
  // As the board's start does (src/cli/open-board.ts): its helper threads yield to the one that draws.
  // AGENT_BOARD_HELPER_THREADS=normal leaves them as they are, to compare.
  const helpers = [helperThreads.backgroundHelperThreads()];
  try {
    await seen('bench-000');
    await sleep(300);
    helpers.push(helperThreads.backgroundHelperThreads());
    // One row: the updates go to sessions on screen (the list shows the first 47 at 200x50), never to the selected one.
    const one = await phase((i, at) => {
      const k = 1 + (i % 40);
      const marker = `MARK-inproc-${i}`;
      feed.sessions = feed.sessions.map((s, j) => (j === k ? { ...s, previewLine: marker, lastOutputAt: at, updatedAt: at } : s));
      return marker;
    });
    // Every row: each session a new line (and a new view object) in the same update; the marker is on a row on screen.
    const all = await phase((i, at) => {
      const marker = `MARK-all-${i}`;
      const k = 1 + (i % 40);
      feed.sessions = feed.sessions.map((s, j) => ({ ...s, previewLine: j === k ? marker : `all ${i} of session ${j}`, lastOutputAt: at, updatedAt: at }));
      return marker;
    });
    // The preview alone: the selected session printed a line (its screen scrolls by one), as in (a2); the sessions stay.
    const preview = await phase((i) => {
      const marker = `MARK-pv-${i}`;
      const p = feed.preview;
      feed.preview = { ...p, lines: [...p.lines.slice(1), marker] };
      return marker;
    });
    const helperLine = helpers.map((r) => helperThreads.describeHelperThreads(r)).join('; then ');
    return { one, all, preview, bytesPerWrite: stdout.bytes / Math.max(1, stdout.writes), frameCache: frameCache.installed, helperThreads: helperLine };
  } finally {
    app.unmount();
    await app.waitUntilExit().catch(() => {});
    stdin.destroy();
  }
}
