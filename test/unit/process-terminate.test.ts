/**
 * terminate() (src/state/process/terminate.ts) on real children, its timers on a fake clock: the
 * polite signal now, SIGKILL only when the grace is up, a cancel that stops the kill, and how it
 * ended as data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Emitter } from '../../src/core/lifetime.js';
import { sendSignal } from '../../src/state/process/signal.js';
import { terminate, type Ended } from '../../src/state/process/terminate.js';
import { GONE_POLL_MS } from '../../src/state/process/wait-gone.js';
import { FakeTime } from '../helpers/fake-time.js';
import { cleanUp, pause, PROCESS_CHILD, readyChild, there, until } from '../helpers/process-child.js';

const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach(cleanUp));
async function child(mode: 'stubborn' | 'polite'): Promise<ChildProcess> {
  const c = await readyChild(mode);
  children.push(c);
  return c;
}

/** The end, seen from outside: resolved or not yet. */
function watch(p: Promise<Ended>): { ended: Ended | null } {
  const seen: { ended: Ended | null } = { ended: null };
  void p.then((e) => (seen.ended = e));
  return seen;
}

/** Moves the fake clock a poll at a time, in real time, until the end is told (a group is polled once its leader exited). */
async function polledUntilEnded(time: FakeTime, seen: { ended: Ended | null }): Promise<void> {
  for (let i = 0; i < 500 && !seen.ended; i++) {
    time.advance(GONE_POLL_MS);
    await pause(20);
  }
}

describe('terminate', () => {
  it('a program that ignores SIGTERM is killed when the grace is up, not before, and the end says it was forced', async () => {
    const time = new FakeTime();
    const c = await child('stubborn');
    const seen = watch(terminate(c, { scheduler: time, graceMs: 1000 }).ended);
    await pause(200);
    expect(seen.ended).toBeNull(); // SIGTERM came and was ignored
    time.advance(999);
    await pause(200);
    expect(seen.ended).toBeNull();
    expect(there(c.pid!)).toBe(true);
    time.advance(1);
    await until(() => seen.ended !== null);
    expect(seen.ended).toEqual({ kind: 'killed', signal: 'SIGKILL', forced: true });
    expect(time.pending).toBe(0);
  });

  it('a program that ends on SIGTERM: its exit code, not forced, and no kill left pending', async () => {
    const time = new FakeTime();
    const c = await child('polite');
    const ended = await terminate(c, { scheduler: time, graceMs: 1000 }).ended;
    expect(ended).toEqual({ kind: 'exited', code: 0, forced: false });
    expect(time.pending).toBe(0);
  });

  it('disposing it cancels the kill: the program is left as it is', async () => {
    const time = new FakeTime();
    const c = await child('stubborn');
    const t = terminate(c, { scheduler: time, graceMs: 1000 });
    t.dispose();
    expect(await t.ended).toEqual({ kind: 'cancelled' });
    time.advance(5000);
    await pause(200);
    expect(there(c.pid!)).toBe(true);
    expect(time.pending).toBe(0);
  });

  it('a pid that is not our child: polled until it is gone, then told as gone (how it ended is its parent\'s to know)', async () => {
    const time = new FakeTime();
    const c = await child('stubborn');
    const seen = watch(terminate(c.pid!, { scheduler: time, graceMs: 1000 }).ended);
    time.advance(1000 - GONE_POLL_MS); // polls while SIGTERM is ignored
    await pause(200);
    expect(seen.ended).toBeNull();
    time.advance(GONE_POLL_MS); // the grace is up: SIGKILL
    await until(() => !there(c.pid!));
    time.advance(GONE_POLL_MS); // the next look sees it gone
    await until(() => seen.ended !== null);
    expect(seen.ended).toEqual({ kind: 'gone', forced: true });
    expect(time.pending).toBe(0);
  });

  it('a whole group: the program and the children it started (they would outlive a signal to it alone)', async () => {
    const time = new FakeTime();
    const parent = spawn(process.execPath, [PROCESS_CHILD, 'parent'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    children.push(parent);
    let out = '';
    parent.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
    await until(() => /grandchild \d+\n/.test(out));
    const grandchild = Number(/grandchild (\d+)/.exec(out)![1]);
    const seen = watch(terminate({ group: parent }, { scheduler: time, graceMs: 1000 }).ended);
    await polledUntilEnded(time, seen);
    expect(seen.ended).toEqual({ kind: 'killed', signal: 'SIGTERM', forced: false });
    expect(there(grandchild)).toBe(false);
  });

  it('a whole group whose leader goes at SIGTERM and a child of it does not: the kill when the grace is up reaches that child', async () => {
    const time = new FakeTime();
    const parent = spawn(process.execPath, [PROCESS_CHILD, 'parent', 'stubborn'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    children.push(parent);
    let out = '';
    parent.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
    await until(() => /grandchild \d+\n/.test(out) && out.includes('grandchild ready\n'));
    const grandchild = Number(/grandchild (\d+)/.exec(out)![1]);
    const seen = watch(terminate({ group: parent }, { scheduler: time, graceMs: 1000 }).ended);
    await until(() => parent.signalCode !== null); // the leader went at SIGTERM
    time.advance(999); // the group polled meanwhile: the grandchild is still in it
    await pause(200);
    expect(seen.ended).toBeNull();
    expect(there(grandchild)).toBe(true);
    time.advance(1); // SIGKILL to the group
    await until(() => !there(grandchild));
    await polledUntilEnded(time, seen);
    expect(seen.ended).toEqual({ kind: 'killed', signal: 'SIGTERM', forced: true });
    expect(time.pending).toBe(0);
  });

  it('one already gone: nothing is sent, and the end says so', async () => {
    const time = new FakeTime();
    const c = await child('polite');
    c.kill('SIGKILL');
    await until(() => c.signalCode !== null);
    expect(await terminate(c, { scheduler: time }).ended).toEqual({ kind: 'already-gone' });
    expect(await terminate(c.pid!, { scheduler: time }).ended).toEqual({ kind: 'already-gone' });
    expect(time.pending).toBe(0);
  });

  it('still there after the kill signal and its settling time: still-alive, not a hang', async () => {
    const time = new FakeTime();
    const c = await child('stubborn');
    // SIGUSR2 as the "kill": one the program ignores, so it outlives it as a process stuck in the kernel would.
    const seen = watch(terminate(c, { scheduler: time, graceMs: 100, killSignal: 'SIGUSR2', settleMs: 500 }).ended);
    time.advance(100);
    await pause(200);
    time.advance(499);
    await pause(50);
    expect(seen.ended).toBeNull();
    time.advance(1);
    await until(() => seen.ended !== null);
    expect(seen.ended).toEqual({ kind: 'still-alive' });
  });

  it("the owner's exit event ends it where no poll is wanted (a PTY's exit)", async () => {
    const time = new FakeTime();
    const c = await child('stubborn');
    const exit = new Emitter<void>();
    const t = terminate({ group: c.pid!, orLeader: true }, { scheduler: time, graceMs: 1000, signals: ['SIGTERM', 'SIGHUP'], exited: exit.event });
    expect(time.pending).toBe(1); // the kill's timer alone: no poll
    exit.fire();
    expect(await t.ended).toEqual({ kind: 'gone', forced: false });
    expect(time.pending).toBe(0);
  });
});

describe('sendSignal', () => {
  it('gives its answer as data: sent, gone, or refused with the error', async () => {
    const c = await child('stubborn');
    expect(sendSignal(c.pid!, 'SIGTERM')).toEqual({ kind: 'sent' });
    const r = sendSignal(c.pid!, 'SIGNOPE' as NodeJS.Signals);
    expect(r.kind).toBe('refused');
    expect(r.kind === 'refused' && r.error.code).toBe('ERR_UNKNOWN_SIGNAL');
    c.kill('SIGKILL');
    await until(() => c.signalCode !== null);
    expect(sendSignal(c, 'SIGTERM')).toEqual({ kind: 'gone' });
    expect(sendSignal({ group: 2 ** 22 - 7 }, 'SIGTERM')).toEqual({ kind: 'gone' });
  });
});
