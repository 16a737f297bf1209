import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { UserError } from '../../src/state/errors.js';
import type { SessionView } from '../../src/state/host-store.js';
import { sessionsDir } from '../../src/state/paths.js';
import { createBoardActions } from '../../src/client/board-actions/board-actions.js';
import { ROOT, cli, cliAsync, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
let feed: LiveBoardFeed | null = null;
beforeEach(() => {
  home = makeHome('ab-feed-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

const open = () => (feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler }));
const find = (f: LiveBoardFeed, id: string): SessionView | undefined => f.sessions.find((s) => s.id === id);
const screenText = (f: LiveBoardFeed) => f.preview?.lines.join('\n') ?? '';
const COUNTER = ['--', 'sh', '-c', 'i=0; while :; do i=$((i+1)); echo "count $i"; sleep 0.2; done'];
const lastCount = (f: LiveBoardFeed) => Math.max(0, ...[...screenText(f).matchAll(/count (\d+)/g)].map((m) => Number(m[1])));

describe('LiveBoardFeed: the session list', () => {
  it('lists the sessions already there, oldest first, with their status', async () => {
    const a = newSession(home, ['--name', 'alpha', '--', 'sleep', '60']);
    const b = newSession(home, ['--name', 'beta', '--', 'sh', '-c', 'exit 3']);
    await waitFor('beta exits', () => JSON.parse(cli(home, ['ls', '--json']).stdout).some((s: SessionView) => s.status === 'exited'));
    const f = open();
    // Read synchronously at construction: the list is there at once.
    expect(f.sessions.map((s) => [s.id, s.name, s.status])).toEqual([
      [a, 'alpha', 'running'],
      [b, 'beta', 'exited'],
    ]);
    expect(find(f, b)?.exitCode).toBe(3);
  });

  it('a session made by `agent-board new` elsewhere appears, and one removed with rm --force vanishes, as they happen', async () => {
    const f = open();
    let notified = 0;
    f.onChange(() => notified++);
    expect(f.sessions).toEqual([]);
    const made = await cliAsync(home, ['new', '--name', 'late', '--', 'sleep', '60']);
    expect(made.code).toBe(0);
    const id = made.stdout.trim();
    const t0 = Date.now();
    await waitFor('listed', () => find(f, id)?.status === 'running');
    const appearedMs = Date.now() - t0;
    expect(notified).toBeGreaterThan(0);

    const gone = await cliAsync(home, ['rm', '--force', 'late']);
    expect(gone.code).toBe(0);
    const t1 = Date.now();
    await waitFor('gone', () => !find(f, id));
    console.log(`appeared ${appearedMs} ms after new returned; vanished ${Date.now() - t1} ms after rm returned`);
  });

  it('renames and resizes arrive as pushes from the runner', async () => {
    const id = newSession(home, ['--name', 'before', '--', 'sleep', '60']);
    const f = open();
    await waitFor('running', () => find(f, id)?.status === 'running');
    expect(cli(home, ['rename', id, 'after']).code).toBe(0);
    await waitFor('renamed', () => find(f, id)?.name === 'after');

    const raw = await RawClient.hello(home, id);
    try {
      raw.send({ type: 'resize', cols: 101, rows: 31 });
      await waitFor('resized', () => find(f, id)?.cols === 101 && find(f, id)?.rows === 31);
    } finally {
      raw.close();
    }
  });

  it('a session whose program ends shows exited with its code; one whose runner is SIGKILLed shows lost', async () => {
    const quick = newSession(home, ['--name', 'quick', '--', 'sh', '-c', 'read x; exit 7']);
    const doomed = newSession(home, ['--name', 'doomed', '--', 'sleep', '60']);
    const f = open();
    await waitFor('running', () => find(f, quick)?.status === 'running' && find(f, doomed)?.status === 'running');

    const raw = await RawClient.hello(home, quick);
    raw.send({ type: 'input', data: 'go\r' });
    await waitFor('exited', () => find(f, quick)?.status === 'exited');
    expect(find(f, quick)).toMatchObject({ exitCode: 7, exitSignal: null, childPid: null });
    raw.close();

    process.kill(find(f, doomed)!.runnerPid!, 'SIGKILL');
    const t0 = Date.now();
    await waitFor('lost', () => find(f, doomed)?.status === 'lost');
    console.log(`exited shown; lost shown ${Date.now() - t0} ms after SIGKILL`);
  });

  it('a bad host.json or a folder that is not a session does not break the feed', async () => {
    const id = newSession(home, ['--name', 'good', '--', 'sleep', '60']);
    fs.mkdirSync(path.join(sessionsDir(home), 'deadbeef'), { mode: 0o700 });
    fs.writeFileSync(path.join(sessionsDir(home), 'deadbeef', 'host.json'), '{"id":"deadbeef","name":');
    fs.mkdirSync(path.join(sessionsDir(home), 'cafebabe'), { mode: 0o700 });
    fs.writeFileSync(path.join(sessionsDir(home), 'cafebabe', 'host.json'), JSON.stringify({ id: 'cafebabe', name: 7, createdAt: '2020-01-01T00:00:00.000Z' }));
    fs.writeFileSync(path.join(sessionsDir(home), 'stray-file'), 'x');
    const f = open();
    expect(f.sessions.map((s) => s.id)).toEqual([id]);
    const later = newSession(home, ['--name', 'later', '--', 'sleep', '60']);
    await waitFor('later listed', () => find(f, later)?.status === 'running');
    expect(f.sessions.map((s) => s.id)).toEqual([id, later]);
  });
  it('a folder whose host.json comes a moment later still appears; a session being started shows as starting, not lost', async () => {
    const f = open();
    const id = '0badf00d';
    const dir = path.join(sessionsDir(home), id);
    fs.mkdirSync(dir, { mode: 0o700 });
    await new Promise((r) => setTimeout(r, 300));
    const now = new Date().toISOString();
    const record = {
      id, name: 'half-made', agent: 'shell', command: 'sleep', args: ['60'], cwd: home, createdAt: now, updatedAt: now, heartbeatAt: now,
      lastOutputAt: null, runnerPid: null, childPid: null, generation: null, status: 'starting', cols: 80, rows: 24, exitCode: null, exitSignal: null, scrollback: 100,
    };
    fs.writeFileSync(path.join(dir, 'host.json.tmp'), JSON.stringify(record));
    fs.renameSync(path.join(dir, 'host.json.tmp'), path.join(dir, 'host.json'));
    await waitFor('half-made listed', () => find(f, id));
    expect(find(f, id)!.status).toBe('starting');
  });

  it('coalesces notifications: a session printing flat out makes at most one per notifyMs', async () => {
    const id = newSession(home, ['--name', 'flood', '--', 'sh', '-c', 'i=0; while :; do i=$((i+1)); echo "line $i"; done']);
    for (const notifyMs of [50, 200]) {
      const f = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler, notifyMs });
      try {
        let n = 0;
        f.onChange(() => n++);
        f.setPreview(id);
        await waitFor('flowing', () => /line \d+/.test(screenText(f)));
        n = 0;
        const t0 = Date.now();
        await new Promise((r) => setTimeout(r, 1000));
        const ms = Date.now() - t0;
        console.log(`notifyMs ${notifyMs}: ${n} notifications in ${ms} ms of flat-out output`);
        expect(n).toBeGreaterThan(0);
        // Sound on a loaded machine: two notifications are notifyMs apart at least (a timer never
        // fires early), and a late one only makes them sparser; the window is the one measured.
        expect(n).toBeLessThanOrEqual(Math.ceil(ms / notifyMs) + 1);
      } finally {
        f.dispose();
      }
    }
  });
});

describe('LiveBoardFeed: the preview', () => {
  it('shows the selected session screen, follows live output, switches with the selection, and shows an exited session final screen', async () => {
    const counter = newSession(home, ['--name', 'counter', ...COUNTER]);
    const other = newSession(home, ['--name', 'other', '--', 'sh', '-c', 'printf "other-session-marker   \\n"; exec sleep 60']);
    const brief = newSession(home, ['--name', 'brief', '--', 'sh', '-c', 'echo final-words; exit 3']);
    const f = open();
    expect(f.preview).toBeNull();

    f.setPreview(counter);
    await waitFor('counter preview', () => f.preview?.id === counter && lastCount(f) > 0);
    const first = lastCount(f);
    await waitFor('live output', () => lastCount(f) >= first + 3);
    const p = f.preview!;
    expect(p).toMatchObject({ cols: 80, rows: 24, final: false });
    expect(p.lines).toHaveLength(24);
    expect(p.lines.every((l) => l === l.trimEnd())).toBe(true);
    // The cursor sits on the line after the last count.
    const lastRow = p.lines.map((l, i) => (l.startsWith('count') ? i : -1)).reduce((a, b) => Math.max(a, b));
    expect([lastRow, lastRow + 1]).toContain(p.cursorY);

    f.setPreview(other);
    await waitFor('switched', () => f.preview?.id === other && screenText(f).includes('other-session-marker'));
    expect(screenText(f)).not.toContain('count');
    expect(f.preview!.lines[0]).toBe('other-session-marker'); // right-trimmed

    await waitFor('brief exits', () => find(f, brief)?.status === 'exited');
    f.setPreview(brief);
    await waitFor('final screen', () => f.preview?.id === brief && screenText(f).includes('final-words'));
    expect(f.preview!.final).toBe(true);

    f.setPreview(null);
    await waitFor('no preview', () => f.preview === null);
  });

  it('takes a fresh snapshot when the session is resized, and turns final when the previewed session ends', async () => {
    const id = newSession(home, ['--name', 'sized', '--', 'sh', '-c', 'echo hello-there; read x; echo bye-now; exit 2']);
    const f = open();
    f.setPreview(id);
    await waitFor('preview', () => screenText(f).includes('hello-there'));
    const raw = await RawClient.hello(home, id);
    raw.send({ type: 'resize', cols: 60, rows: 10 });
    await waitFor('resized preview', () => f.preview?.cols === 60 && f.preview.rows === 10 && f.preview.lines.length === 10);
    expect(screenText(f)).toContain('hello-there');

    raw.send({ type: 'input', data: 'x\r' });
    await waitFor('final', () => f.preview?.final === true && screenText(f).includes('bye-now'));
    expect(find(f, id)).toMatchObject({ status: 'exited', exitCode: 2 });
    raw.close();
  });

  it('the previewed session appears in the list later (selection made before it is known)', async () => {
    const f = open();
    const made = await cliAsync(home, ['new', '--name', 'eager', ...COUNTER]);
    const id = made.stdout.trim();
    f.setPreview(id);
    await waitFor('preview of a new session', () => lastCount(f) > 0);
  });
});

describe('LiveBoardFeed: dispose and cost', () => {
  it('dispose closes every connection, watch and timer: a process using the feed exits on its own', async () => {
    const live = newSession(home, ['--name', 'live', ...COUNTER]);
    const done = newSession(home, ['--name', 'done', '--', 'sh', '-c', 'echo gone; exit 0']);
    await waitFor('done exits', () => JSON.parse(cli(home, ['ls', '--json']).stdout).some((s: SessionView) => s.id === done && s.status === 'exited'));
    const child = await runHolder({ want: 2, preview: live, idleMs: 500 });
    expect(child.ready).toMatchObject({ listed: 2 });
    expect(child.ready.preview).toContain('count');
    // Exits on its own once the feed is disposed (the holder's timers are unref'd: only a watch or a
    // socket left open holds it), else runHolder's killer ends it and the code is null.
    console.log(`the feed's process exited ${child.exitAfterDisposeMs} ms after dispose`);
    expect(child.code, 'the exit code of the process that held the feed').toBe(0);

    // The same in this process: nothing of the feed's is left once it is disposed.
    const count = (type: string) => process.getActiveResourcesInfo().filter((r) => r === type).length;
    const before = { watches: count('FSEventWrap'), sockets: count('PipeWrap') };
    const f = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler });
    f.setPreview(live);
    await waitFor('preview', () => lastCount(f) > 0);
    expect(count('FSEventWrap')).toBeGreaterThan(before.watches); // the sessions folder, the exited session's folder
    // The status and the preview connections (the preview can be drawn before the status link has connected).
    await waitFor('both connections open', () => count('PipeWrap') >= before.sockets + 2);
    f.dispose();
    await waitFor('released', () => count('FSEventWrap') === before.watches && count('PipeWrap') === before.sockets);
  });

  it('holds 100 sessions, lists them all, and idles at about zero CPU', { timeout: 150_000 }, async () => {
    const N = 100;
    const holder = runHolder({ want: N, idleMs: 3000, windows: 2, waitMs: 120_000 });
    const t0 = Date.now();
    const ids: string[] = [];
    // Several at a time: each `new` is a node process that starts a runner and waits for it.
    for (let next = 0; next < N; ) {
      const batch = Array.from({ length: Math.min(10, N - next) }, (_, i) => cliAsync(home, ['new', '--name', `s-${next + i}`, '--', 'sleep', '600']));
      next += batch.length;
      for (const r of await Promise.all(batch)) {
        expect(r.code, r.stderr).toBe(0);
        ids.push(r.stdout.trim());
      }
    }
    const createdAt = Date.now();
    const child = await holder;
    const idle = child.idle.map((w) => `${w.cpuPct.toFixed(3)}% (${w.cpuMs.toFixed(1)} ms CPU in ${Math.round(w.ms)} ms, ${w.notifications} notifications)`);
    console.log(
      `100 sessions: created in ${createdAt - t0} ms; the feed listed all ${child.ready.at - createdAt} ms after the last \`new\` returned; ` +
        `idle CPU of the feed's process: ${idle.join(', ')}; it exited ${child.exitAfterDisposeMs} ms after dispose`,
    );
    expect(child.ready.listed).toBe(N);
    expect(new Set(child.ready.ids)).toEqual(new Set(ids));
    for (const w of child.idle) {
      expect(w.cpuPct).toBeLessThan(2);
      expect(w.notifications).toBe(0); // heartbeats change nothing a user sees
    }
    expect(child.code, 'the exit code of the process that held the feed').toBe(0); // on its own after dispose
  });
});

// ---------------------------------------------------------------------------
// A separate node process that holds a feed (the built one, in dist), so its
// CPU and its handles are its own.

interface HolderResult {
  ready: { listed: number; ids: string[]; preview: string; at: number };
  idle: Array<{ ms: number; cpuMs: number; cpuPct: number; notifications: number }>;
  exitAfterDisposeMs: number;
  code: number | null;
}

const HOLDER = `
import { LiveBoardFeed } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', 'client', 'feed', 'board-feed.js')).href)};
import { realClock, realScheduler } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', 'state', 'real-time.js')).href)};
const env = process.env;
const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const want = Number(env.FEED_WANT);
const feed = new LiveBoardFeed(env.FEED_HOME, { clock: realClock, scheduler: realScheduler({ unref: true }) });
let notifications = 0;
let lastChange = Date.now();
feed.onChange(() => { notifications++; lastChange = Date.now(); });
if (env.FEED_PREVIEW) feed.setPreview(env.FEED_PREVIEW);
const deadline = Date.now() + Number(env.FEED_WAIT_MS);
// Settled: every session listed, and past "starting" (a silent program turns idle by its bytes ~2 s after
// it starts; under load the last runners get there well after they are listed).
const settled = (s) => s.status === 'exited' || (s.status === 'running' && s.activity && s.activity !== 'starting');
const ready = () => feed.sessions.length === want && feed.sessions.every(settled) &&
  (!env.FEED_PREVIEW || (feed.preview && feed.preview.lines.some(Boolean)));
while (!ready()) {
  if (Date.now() > deadline) { say({ ev: 'timeout', listed: feed.sessions.length }); process.exit(1); }
  await sleep(50);
}
const readyAt = Date.now();
say({ ev: 'ready', listed: feed.sessions.length, ids: feed.sessions.map((s) => s.id), preview: feed.preview ? feed.preview.lines.join('\\n') : '' });
// Settle: the last runners' first pushes, connections opening.
while (Date.now() - lastChange < 1000 && Date.now() - readyAt < 3000) await sleep(100);
const idleMs = Number(env.FEED_IDLE_MS);
const windows = [];
for (let i = 0; i < Number(env.FEED_WINDOWS); i++) {
  const n0 = notifications;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await sleep(idleMs);
  const c1 = process.cpuUsage(c0);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpuMs = (c1.user + c1.system) / 1000;
  windows.push({ ms, cpuMs, cpuPct: (100 * cpuMs) / ms, notifications: notifications - n0 });
}
say({ ev: 'idle', windows });
feed.dispose();
say({ ev: 'disposed', at: Date.now() });
`;

function runHolder(opts: { want: number; preview?: string; idleMs: number; windows?: number; waitMs?: number }): Promise<HolderResult> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER], {
    env: {
      ...process.env,
      FEED_HOME: home,
      FEED_WANT: String(opts.want),
      FEED_PREVIEW: opts.preview ?? '',
      FEED_IDLE_MS: String(opts.idleMs),
      FEED_WINDOWS: String(opts.windows ?? 1),
      FEED_WAIT_MS: String(opts.waitMs ?? 10_000),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const events: Record<string, Record<string, unknown>> = {};
  let readyAt = 0;
  let disposedAt = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (;;) {
      const nl = out.indexOf('\n');
      if (nl < 0) break;
      const ev = JSON.parse(out.slice(0, nl)) as Record<string, unknown>;
      out = out.slice(nl + 1);
      events[ev.ev as string] = ev;
      if (ev.ev === 'ready') readyAt = Date.now();
      if (ev.ev === 'disposed') disposedAt = Date.now();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), (opts.waitMs ?? 10_000) + opts.idleMs * (opts.windows ?? 1) + 10_000);
    // 'close', not 'exit': its stdio pipes are closed too, so a caller that counts this process's
    // pipes (the dispose test) never counts them as ours.
    child.on('close', (code) => {
      clearTimeout(killer);
      if (!events.ready || !events.idle || !disposedAt) {
        reject(new Error(`feed holder failed (code ${code}): ${JSON.stringify(events)} ${err}`));
        return;
      }
      const ready = events.ready as unknown as HolderResult['ready'];
      resolve({
        ready: { ...ready, at: readyAt },
        idle: (events.idle as unknown as { windows: HolderResult['idle'] }).windows,
        exitAfterDisposeMs: Date.now() - disposedAt,
        code,
      });
    });
  });
}

describe('createBoardActions', () => {
  it('kills, renames and removes through the client library; the feed sees each; errors are UserErrors', async () => {
    const id = newSession(home, ['--name', 'target', '--', 'sleep', '60']);
    const actions = createBoardActions(home, REAL_TIME);
    const f = open();
    await waitFor('running', () => find(f, id)?.status === 'running');

    await actions.rename(find(f, id)!, 'renamed');
    await waitFor('renamed', () => find(f, id)?.name === 'renamed');
    await expect(actions.remove(find(f, id)!)).rejects.toThrow(/still running/);

    const outcome = await actions.kill(find(f, id)!);
    expect(outcome).toMatchObject({ kind: 'exit' });
    await waitFor('exited', () => find(f, id)?.status === 'exited');
    await actions.rename(find(f, id)!, 'renamed-again'); // exited: host.json is written directly
    await waitFor('renamed again', () => find(f, id)?.name === 'renamed-again');

    await actions.remove(find(f, id)!);
    await waitFor('removed', () => !find(f, id));

    const bad = actions.create({ kind: 'shell', command: 'no-such-program-here', cwd: home, room: 'default', worktree: false });
    await expect(bad).rejects.toBeInstanceOf(UserError);
    await expect(bad).rejects.toThrow(/command not found/);
  });
});
