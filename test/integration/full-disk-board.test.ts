/**
 * The board's feed (src/client/feed/board-feed.ts) over a runner that cannot write its heartbeat (issue
 * 28): on a full 2 MiB tmpfs with host.json a minute old, the row is alive and says `disk full`,
 * whether the board was open before or opened after, never `lost`; once space is freed the note
 * goes by itself. A runner that answers nothing (stopped) is the one that turns lost, and comes
 * back when it answers again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { rowStatusText, statusText } from '../../src/core/board/board-derived.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { SessionView } from '../../src/state/host-store.js';
import { cli, destroyHome, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { records } from '../helpers/reboot.js';
import { SmallDisk } from '../helpers/small-disk.js';

const ENV = { AGENT_BOARD_TEST_HEARTBEAT_MS: '200' };

let disk: SmallDisk;
let home: string;
let feed: LiveBoardFeed | null = null;
beforeEach(() => {
  disk = SmallDisk.mount();
  home = disk.home;
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
  disk.unmount();
});

const open = () => (feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler, sweepMs: 100 }));
const find = (f: LiveBoardFeed, id: string): SessionView => f.sessions.find((s) => s.id === id)!;
const record = (name: string): HostRecord => records(home).get(name)!;

function start(name: string): HostRecord {
  const r = cli(home, ['new', '--name', name, '--', 'sh', '-c', 'echo ready; exec sleep 600'], { env: ENV });
  if (r.code !== 0) throw new Error(`new failed: ${r.stderr}`);
  return record(name);
}

/** host.json a minute old on a full disk (SmallDisk.agedRecord). */
function fillWithAgedRecord(rec: HostRecord): void {
  const age = disk.agedRecord(record(rec.name));
  disk.fill();
  age();
}

/** Watches `id`'s status on every change of the feed, for `ms`: every status it showed. */
async function statusesFor(f: LiveBoardFeed, id: string, ms: number): Promise<Set<string>> {
  const seen = new Set<string>([find(f, id).status]);
  const sub = f.onChange(() => seen.add(find(f, id).status));
  await new Promise((r) => setTimeout(r, ms));
  sub.dispose();
  seen.add(find(f, id).status);
  return seen;
}

describe('the board over a runner that cannot write its heartbeat', () => {
  it('open before: the row stays alive and says disk full; the note goes once space is freed', async () => {
    const rec = start('d1');
    const f = open();
    await waitFor('idle', () => find(f, rec.id).activity === 'idle', 10_000);
    fillWithAgedRecord(rec);
    await waitFor('disk full on the row', () => find(f, rec.id).cannotWrite === 'ENOSPC');
    expect(rowStatusText(find(f, rec.id))).toBe('disk full');
    expect(statusText(find(f, rec.id))).toBe('idle · disk full');
    // Many sweeps (every 100 ms) with host.json a minute old on disk: never lost.
    expect([...(await statusesFor(f, rec.id, 2000))]).toEqual(['running']);

    disk.free();
    await waitFor('the note gone', () => find(f, rec.id).cannotWrite === undefined);
    expect(find(f, rec.id)).toMatchObject({ status: 'running', activity: 'idle' });
    expect(statusText(find(f, rec.id))).toBe('idle');
  });

  it('opened after: the runner is asked, not taken for lost', async () => {
    const rec = start('d1');
    await waitFor('idle', () => record('d1').activity === 'idle', 10_000);
    fillWithAgedRecord(rec);
    await new Promise((r) => setTimeout(r, 500)); // the runner has failed a write: it says so on its socket
    const f = open();
    expect(find(f, rec.id).status).toBe('running'); // at once, before it is asked: not lost on the file alone
    await waitFor('disk full', () => find(f, rec.id).cannotWrite === 'ENOSPC');
    expect([...(await statusesFor(f, rec.id, 1000))]).toEqual(['running']);
  });

  it('a runner that answers nothing (stopped) turns lost, open before or after, and comes back once it answers', async () => {
    const rec = start('w1');
    const f = open();
    await waitFor('running', () => find(f, rec.id).status === 'running');
    await new Promise((r) => setTimeout(r, 500)); // its status link is up (it connects within milliseconds): the connected case
    process.kill(rec.runnerPid!, 'SIGSTOP');
    try {
      const old = new Date(Date.now() - 60_000).toISOString();
      fs.writeFileSync(path.join(home, 'sessions', rec.id, 'host.json'), JSON.stringify({ ...record('w1'), heartbeatAt: old, updatedAt: old }));
      // Connected, its pushes are its heartbeat: none, so once the last is 10 s old host.json is read again, a minute old: lost.
      await waitFor('lost on the board open before', () => find(f, rec.id).status === 'lost', 15_000);
      const late = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler, sweepMs: 100 });
      try {
        await waitFor('lost on the board opened after, once its hello times out', () => find(late, rec.id).status === 'lost');
      } finally {
        late.dispose();
      }
    } finally {
      process.kill(rec.runnerPid!, 'SIGCONT');
    }
    await waitFor('running again', () => find(f, rec.id).status === 'running');
  });
});
