import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAttach, type AttachInput, type AttachOutput } from '../../src/client/attach/attach.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import { BACKOFF_MS } from '../../src/core/terminal/jiggle-retry.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { socketPath } from '../../src/state/paths.js';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'programs', name);
const detachKey = (() => {
  const k = parseDetachKey('ctrl-\\');
  if (!k.ok) throw new Error(k.message);
  return k.key;
})();

function fakeTerminal(cols: number, rows: number) {
  const keys = Object.assign(new EventEmitter(), { resume() {}, pause() {} }) as unknown as AttachInput & EventEmitter;
  const screen = Object.assign(new EventEmitter(), {
    columns: cols,
    rows,
    drawn: '',
    write(d: string) {
      this.drawn += d;
      return true;
    },
  }) as unknown as AttachOutput & EventEmitter & { drawn: string };
  return { keys, screen };
}

function start(args: string[], env: Record<string, string> = {}): string {
  const r = cli(home, ['new', ...args], { env });
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

function attach(id: string, t: ReturnType<typeof fakeTerminal>) {
  return runAttach({ scheduler: REAL_TIME.scheduler, connect: () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' }), input: t.keys, output: t.screen, detachKey });
}

describe('the jiggle chain against real programs', () => {
  it('a pi-like program that swallows its first size changes is asked again until it does a full render', async () => {
    // It ignores 4 size changes: the attach's own resize, and both halves of the first jiggle, and one more.
    const id = start(['--agent', 'pi', '--command', process.execPath, '--', fixture('pi-like.mjs')], { IGNORE_RESIZES: '4' });
    await waitFor('started', () => cli(home, ['peek', id]).stdout.includes('frame 1 (start)'));
    const t = fakeTerminal(100, 30);
    const startedAt = Date.now();
    const done = attach(id, t);
    await waitFor('full render at our size', () => /frame \d+ \(resize\) 100x30/.test(t.screen.drawn), 8000);
    // The first render came from the 5th size change: the first retry's, not the initial jiggle's.
    expect(t.screen.drawn).toMatch(/frame 2 \(resize\) 100x30 seen 5/);
    expect(Date.now() - startedAt).toBeGreaterThan(BACKOFF_MS[0]!);
    // Then the chain stops: no more jiggles reach the program.
    const seenNow = () => Number(/seen (\d+)/g.exec(t.screen.drawn.slice(t.screen.drawn.lastIndexOf('frame')))?.[1]);
    const before = seenNow();
    await new Promise((r) => setTimeout(r, 1800));
    expect(seenNow()).toBe(before);
    // The jiggle never changed the session's size for anyone.
    const host = JSON.parse(cli(home, ['ls', '--json']).stdout)[0];
    expect([host.cols, host.rows]).toEqual([100, 30]);
    t.keys.emit('data', '\x1c');
    await done;
  });

  it('a shell session is jiggled the dtach way: SIGWINCH with the size unchanged, until it redraws', async () => {
    const id = start(['--agent', 'shell', '--', process.execPath, fixture('winch-counter.mjs')]);
    await waitFor('ready', () => cli(home, ['peek', id]).stdout.includes('winch-counter ready'));
    const t = fakeTerminal(80, 24); // the session's own size: no real resize
    const done = attach(id, t);
    await waitFor('redraw', () => t.screen.drawn.includes('redrawn after 1 winches'), 5000);
    await new Promise((r) => setTimeout(r, 800));
    expect(t.screen.drawn).not.toContain('winch 2'); // settled on the marker: no more signals
    t.keys.emit('data', '\x1c');
    await done;
  });

  it('keeps jiggling with backoff while the marker does not come, then gives up', async () => {
    const id = start(['--agent', 'shell', '--', process.execPath, fixture('winch-counter.mjs')], { REDRAW_ON: '99' });
    await waitFor('ready', () => cli(home, ['peek', id]).stdout.includes('winch-counter ready'));
    const t = fakeTerminal(80, 24);
    const startedAt = Date.now();
    const done = attach(id, t);
    // The initial jiggle and the four retries at 120, 620, 2120 and 5120 ms.
    await waitFor('five winches', () => t.screen.drawn.includes('winch 5'), 9000);
    expect(Date.now() - startedAt).toBeGreaterThan(5000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.screen.drawn).not.toContain('winch 6');
    t.keys.emit('data', '\x1c');
    await done;
  });
});
