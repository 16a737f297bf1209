/**
 * The file lock's waiting, on a fake clock (src/state/file-lock.ts): the deadline, the sleeps
 * between tries and a lock's age are all the given Clock's and Scheduler's, so a wait of seconds
 * takes no real time here. The lock files are real; test/integration/chat-store.test.ts races
 * real processes for them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/state/file-lock.js';
import { FakeTime } from '../helpers/fake-time.js';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-lock-'));
  lock = path.join(dir, 'x.lock');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A lock held by a live holder: this very process, under a token that is not the one we take. */
function holdLock(): void {
  fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), at: 0, token: 'theirs' }));
}

const turn = () => new Promise<void>((r) => setImmediate(r));

interface Outcome<T> { value?: T; error?: unknown; settledAt: number }

/** Moves the fake time in small steps, letting the lock's loop run between them, until `p` settles. */
async function drive<T>(time: FakeTime, p: Promise<T>, stepMs = 4, maxMs = 60_000): Promise<Outcome<T>> {
  let out: Outcome<T> | null = null;
  p.then((value) => (out = { value, settledAt: time.now() }), (error: unknown) => (out = { error, settledAt: time.now() }));
  const start = time.now();
  await turn();
  while (out === null && time.now() - start < maxMs) {
    time.advance(stepMs);
    await turn();
  }
  if (out === null) throw new Error(`still waiting after ${maxMs} ms of fake time`);
  return out;
}

describe('withFileLock on a fake clock', () => {
  it('runs at once when the lock is free, and leaves no lock behind', async () => {
    const time = new FakeTime(Date.now());
    const start = time.now();
    const r = await drive(time, withFileLock(lock, () => 'mine', { clock: time, scheduler: time }));
    expect(r.value).toBe('mine');
    expect(r.settledAt).toBe(start); // no sleep
    expect(fs.existsSync(lock)).toBe(false);
    expect(time.pending).toBe(0);
  });

  it('gives up at its deadline by the clock it was given, naming the holder', async () => {
    const time = new FakeTime(Date.now());
    holdLock();
    const start = time.now();
    const r = await drive(time, withFileLock(lock, () => 1, { clock: time, scheduler: time }, { timeoutMs: 300, what: 'the test room' }));
    expect(String(r.error)).toMatch(/the test room is busy: could not take its lock .* in 0\.3 s \(held by pid \d+ on /);
    // Not before the deadline, and within one sleep (at most 16 ms) and one step after it.
    expect(r.settledAt - start).toBeGreaterThan(300);
    expect(r.settledAt - start).toBeLessThanOrEqual(300 + 16 + 4);
    expect(fs.existsSync(lock)).toBe(true); // a live, fresh holder's lock is never broken
    expect(time.pending).toBe(0);
  });

  it('waits on its scheduler while the lock is held, and takes it once the holder lets go', async () => {
    const time = new FakeTime(Date.now());
    holdLock();
    time.setTimeout(() => fs.rmSync(lock), 200); // the holder lets go, 200 ms of fake time on
    const start = time.now();
    const r = await drive(time, withFileLock(lock, () => 'mine', { clock: time, scheduler: time }));
    expect(r.value).toBe('mine');
    expect(r.settledAt - start).toBeGreaterThanOrEqual(200);
    expect(r.settledAt - start).toBeLessThanOrEqual(200 + 16 + 4);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('judges a lock stale by its age on the given clock', async () => {
    holdLock();
    // The same lock file (modified just now) is fresh on a clock that reads now...
    const fresh = new FakeTime(Date.now());
    const held = await drive(fresh, withFileLock(lock, () => 1, { clock: fresh, scheduler: fresh }, { timeoutMs: 100, staleMs: 10_000 }));
    expect(String(held.error)).toMatch(/is busy/);
    expect(fs.existsSync(lock)).toBe(true);
    // ...and stale on one that reads a minute later: broken at the first look, taken after the first (1 ms) sleep.
    const later = new FakeTime(Date.now() + 60_000);
    const start = later.now();
    const r = await drive(later, withFileLock(lock, () => 'broke it', { clock: later, scheduler: later }, { staleMs: 10_000 }));
    expect(r.value).toBe('broke it');
    expect(r.settledAt - start).toBeLessThanOrEqual(4); // one step of the drive
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('clears a breaker that died holding `.break` once it is old on the given clock, then breaks the stale lock', async () => {
    holdLock();
    fs.writeFileSync(`${lock}.break`, '');
    const later = new FakeTime(Date.now() + 60_000);
    const r = await drive(later, withFileLock(lock, () => 'mine', { clock: later, scheduler: later }, { staleMs: 10_000, timeoutMs: 1_000 }));
    expect(r.value).toBe('mine');
    expect(fs.existsSync(`${lock}.break`)).toBe(false);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('stamps the lock it takes with the clock time', async () => {
    const time = new FakeTime(123_456_789);
    let seen: unknown = null;
    await drive(time, withFileLock(lock, () => (seen = JSON.parse(fs.readFileSync(lock, 'utf8'))), { clock: time, scheduler: time }));
    expect(seen).toMatchObject({ pid: process.pid, host: os.hostname(), at: 123_456_789 });
  });
});
