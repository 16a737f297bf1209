import { describe, expect, it } from 'vitest';
import type { WorktreeStats } from '../../src/core/worktree/worktree.js';
import { WorktreeRefresher } from '../../src/state/worktree/worktree-refresh.js';
import { FakeTime } from '../helpers/fake-time.js';
import { mulberry32 } from '../helpers/rng.js';

function stats(files: number, at = 'x'): WorktreeStats {
  return { files, added: 0, removed: 0, ahead: 0, behind: 0, uncommitted: 0, at };
}

const flush = () => new Promise((res) => setImmediate(res));

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
  });
  return { time, r, written, setFiles: (n: number) => (files = n), hold: (on: boolean) => (hold = on), finish: () => resolveRun?.() };
}

describe('WorktreeRefresher', () => {
  it('counts at once when asked, then not again within the minimum interval (1 s)', async () => {
    const { time, r, written, setFiles } = rig();
    r.now();
    time.advance(0);
    await flush();
    expect(r.runs).toBe(1);
    expect(written).toHaveLength(1);
    setFiles(1);
    r.now(); // a turn ended 400 ms later: waits for the interval
    time.advance(400);
    await flush();
    expect(r.runs).toBe(1);
    time.advance(600);
    await flush();
    expect(r.runs).toBe(2);
    expect(written.map((s) => s.files)).toEqual([0, 1]);
  });

  it('a burst of changes is one count, the settle time (1 s) after its first change; an unchanged count is not written', async () => {
    const { time, r, written } = rig();
    r.now();
    time.advance(0);
    await flush();
    time.advance(10_000);
    for (let i = 0; i < 45; i++) {
      r.changed();
      time.advance(30);
    }
    await flush();
    expect(r.runs).toBe(2); // at 1 s, inside the burst
    time.advance(2000);
    await flush();
    expect(r.runs).toBe(3); // the burst's end, a second after that one
    expect(written).toHaveLength(1); // the same counts (their time aside): host.json is left alone
  });

  it('never two counts at a time: a request during one makes one more after it; dispose stops everything', async () => {
    const { time, r, hold, finish } = rig();
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
    time.advance(0);
    expect(r.runs).toBe(2); // its wait counted from the change, long past
    finish();
    await flush();
    r.changed();
    r.dispose();
    time.advance(60_000);
    expect(r.runs).toBe(2);
    expect(time.pending).toBe(0);
  });

  it('every change is counted within 2 s, whenever it comes and however long the counts take (up to 600 ms)', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rand = mulberry32(seed);
      const time = new FakeTime();
      const counts: Array<{ start: number; end: number }> = [];
      const r = new WorktreeRefresher({
        compute: () => {
          const c = { start: time.now(), end: Number.POSITIVE_INFINITY };
          counts.push(c);
          return new Promise<WorktreeStats>((res) =>
            time.setTimeout(() => {
              c.end = time.now();
              res(stats(counts.length));
            }, Math.floor(rand() * 600)),
          );
        },
        write: () => undefined,
        clock: time,
        scheduler: time,
      });
      const changes: number[] = [];
      let next = 0;
      for (let t = 0; t < 60_000; t += 10) {
        if (t >= next) {
          changes.push(time.now());
          r.changed();
          // Changes in bursts, steadily, or after a quiet spell.
          next = t + (rand() < 0.3 ? Math.floor(rand() * 100) : Math.floor(rand() * 3000));
        }
        time.advance(10);
        await flush();
      }
      for (let i = 0; i < 300; i++) {
        time.advance(10);
        await flush();
      }
      for (const at of changes) {
        const counted = counts.find((c) => c.start > at);
        expect(counted, `seed ${seed}: the change at ${at} was never counted`).toBeDefined();
        expect(counted!.end - at, `seed ${seed}: the change at ${at}`).toBeLessThanOrEqual(2000);
      }
      r.dispose();
    }
  });
});
