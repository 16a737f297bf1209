import { describe, expect, it } from 'vitest';
import type { WorktreeStats } from '../../src/core/worktree/worktree.js';
import { WorktreeRefresher } from '../../src/runner/worktree-refresh.js';
import { FakeTime } from '../helpers/fake-time.js';

function stats(files: number, at = 'x'): WorktreeStats {
  return { files, added: 0, removed: 0, ahead: 0, behind: 0, uncommitted: 0, at };
}

function rig() {
  const time = new FakeTime();
  let files = 0;
  const written: WorktreeStats[] = [];
  let resolveRun: (() => void) | null = null;
  let hold = false;
  const r = new WorktreeRefresher({
    compute: () =>
      hold ? new Promise<WorktreeStats>((res) => (resolveRun = () => res(stats(files)))) : Promise.resolve(stats(files, String(time.now()))),
    write: (s) => written.push(s),
    clock: time,
    scheduler: time,
    debounceMs: 2000,
    minIntervalMs: 5000,
  });
  const flush = () => new Promise((res) => setImmediate(res));
  return { time, r, written, flush, setFiles: (n: number) => (files = n), hold: (on: boolean) => (hold = on), finish: () => resolveRun?.() };
}

describe('WorktreeRefresher', () => {
  it('counts at once when asked, then not again within the minimum interval', async () => {
    const { time, r, written, flush, setFiles } = rig();
    r.now();
    time.advance(0);
    await flush();
    expect(r.runs).toBe(1);
    expect(written).toHaveLength(1);
    setFiles(1);
    r.now(); // a turn ended 1 s later: waits for the interval
    time.advance(1000);
    await flush();
    expect(r.runs).toBe(1);
    time.advance(4000);
    await flush();
    expect(r.runs).toBe(2);
    expect(written.map((s) => s.files)).toEqual([0, 1]);
  });

  it('a burst of changes is one count, a debounce after its first change; an unchanged count is not written', async () => {
    const { time, r, written, flush } = rig();
    r.now();
    time.advance(0);
    await flush();
    time.advance(10_000);
    for (let i = 0; i < 50; i++) {
      r.changed();
      time.advance(30);
    }
    await flush();
    time.advance(2000);
    await flush();
    expect(r.runs).toBe(2);
    expect(written).toHaveLength(1); // the same counts (their time aside): host.json is left alone
  });

  it('never two counts at a time: a request during one makes one more after it; dispose stops everything', async () => {
    const { time, r, flush, hold, finish } = rig();
    hold(true);
    r.now();
    time.advance(0);
    expect(r.runs).toBe(1);
    r.changed();
    r.now();
    time.advance(60_000);
    expect(r.runs).toBe(1);
    finish();
    await flush();
    time.advance(2000);
    expect(r.runs).toBe(2);
    finish();
    await flush();
    r.changed();
    r.dispose();
    time.advance(60_000);
    expect(r.runs).toBe(2);
    expect(time.pending).toBe(0);
  });
});
