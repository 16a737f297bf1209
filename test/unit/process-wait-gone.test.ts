/** Waiting for a process to be gone (src/state/process/wait-gone.ts): a poll on the scheduler, at its named interval. */
import { describe, expect, it } from 'vitest';
import { isPidAlive } from '../../src/state/process/alive.js';
import { GONE_POLL_MS, waitGone, watchGone } from '../../src/state/process/wait-gone.js';
import { realScheduler } from '../../src/state/real-time.js';
import { FakeTime } from '../helpers/fake-time.js';
import { readyChild } from '../helpers/process-child.js';

describe('watchGone', () => {
  it('tells once, at the first look after the process went, and stops looking', () => {
    const time = new FakeTime();
    let alive = true;
    let told = 0;
    watchGone(() => alive, () => told++, { scheduler: time });
    time.advance(GONE_POLL_MS * 3);
    expect(told).toBe(0);
    alive = false;
    time.advance(GONE_POLL_MS - 1);
    expect(told).toBe(0); // not before the next look
    time.advance(1);
    expect(told).toBe(1);
    expect(time.pending).toBe(0);
  });

  it('one gone already is told at once, with no timer; disposing stops the looks', () => {
    const time = new FakeTime();
    let told = 0;
    watchGone(() => false, () => told++, { scheduler: time });
    expect(told).toBe(1);
    expect(time.pending).toBe(0);
    let alive = true;
    const w = watchGone(() => alive, () => told++, { scheduler: time, pollMs: 5 });
    w.dispose();
    alive = false;
    time.advance(100);
    expect(told).toBe(1);
    expect(time.pending).toBe(0);
  });
});

describe('waitGone', () => {
  it('false when it is still there at the deadline, and nothing left pending', async () => {
    const time = new FakeTime();
    const waiting = waitGone(() => true, 1000, { scheduler: time });
    time.advance(1000);
    expect(await waiting).toBe(false);
    expect(time.pending).toBe(0);
  });

  it('a real process: true soon after it is killed (real time, generous bound)', async () => {
    const child = await readyChild('stubborn');
    const waiting = waitGone(() => isPidAlive(child.pid!), 10_000, { scheduler: realScheduler() });
    const killedAt = Date.now();
    child.kill('SIGKILL');
    expect(await waiting).toBe(true);
    expect(Date.now() - killedAt).toBeLessThan(5000);
  });
});
