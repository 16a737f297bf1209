/**
 * Running a command and collecting what it says (src/state/process/run.ts), on real children:
 * how it ended as data, a program that cannot start as a value, output kept within its bound,
 * and a timeout that ends it through terminate on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { runCommand, startCommand, type RunResult } from '../../src/state/process/run.js';
import { FakeTime } from '../helpers/fake-time.js';
import { pause, PROCESS_CHILD, readyFile, there, until } from '../helpers/process-child.js';

const node = process.execPath;

describe('runCommand', () => {
  it('its exit code and both outputs', async () => {
    const r = await runCommand(node, [PROCESS_CHILD, 'exit', '3']);
    expect(r).toEqual({ code: 3, signal: null, stdout: 'out\n', stderr: 'first line of complaint\nsecond line\n', timedOut: false, error: null });
  });

  it('a program that is not there is a value (ENOENT), not a throw', async () => {
    const r = await runCommand('/nonexistent/agent-board-test-program', []);
    expect(r.error?.code).toBe('ENOENT');
    expect(r).toMatchObject({ code: null, signal: null, stdout: '', stderr: '', timedOut: false });
  });

  it('its input on stdin', async () => {
    const r = await runCommand(node, [PROCESS_CHILD, 'echo'], { input: 'line one\nline two\n' });
    expect(r.stdout).toBe('line one\nline two\n');
  });

  it('output past the bound: the start or the end kept, and the program still runs to its end (its pipe kept drained)', async () => {
    const size = 1024 * 1024; // far more than a pipe holds: a reader that stopped would leave it blocked
    const all = '0123456789'.repeat(size / 10 + 1).slice(0, size);
    const start = await runCommand(node, [PROCESS_CHILD, 'chatty', String(size)], { stdout: { limit: 1000 } });
    expect(start.code).toBe(0);
    expect(start.stdout).toBe(all.slice(0, 1000));
    const end = await runCommand(node, [PROCESS_CHILD, 'chatty', String(size)], { stdout: { limit: 1000, keep: 'end' } });
    expect(end.code).toBe(0);
    expect(end.stdout).toBe(all.slice(-1000));
  });

  it('a timeout ends it through terminate: SIGTERM at the timeout, SIGKILL after the grace, timedOut', async () => {
    const time = new FakeTime();
    let result: RunResult | null = null;
    const { env, ready } = readyFile();
    const running = runCommand(node, [PROCESS_CHILD, 'stubborn'], { env, scheduler: time, timeoutMs: 1000, graceMs: 500 }).then((r) => (result = r));
    await ready(); // its SIGTERM ignored from here on
    time.advance(1000);
    await pause(200);
    time.advance(499);
    await pause(200);
    expect(result).toBeNull(); // SIGTERM was ignored and the grace is not up
    time.advance(1);
    await running;
    expect(result).toMatchObject({ code: null, signal: 'SIGKILL', stdout: 'ready\n', timedOut: true, error: null });
  });

  it('in a group of its own, a timeout ends the children it started too (which held its output open)', async () => {
    const time = new FakeTime();
    const { env, ready } = readyFile();
    const running = startCommand(node, [PROCESS_CHILD, 'parent'], { env, scheduler: time, timeoutMs: 1000, group: true });
    await ready(); // the grandchild started
    time.advance(1000);
    const r = await running.result;
    expect(r).toMatchObject({ signal: 'SIGTERM', timedOut: true });
    const grandchild = Number(/grandchild (\d+)/.exec(r.stdout)?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    await until(() => !there(grandchild));
  });

  it('disposing a run ends it, and its result says how', async () => {
    const time = new FakeTime();
    const { env, ready } = readyFile();
    const running = startCommand(node, [PROCESS_CHILD, 'polite'], { env, scheduler: time });
    await ready();
    running.dispose();
    const r = await running.result;
    expect(r).toMatchObject({ code: 0, stdout: 'ready\nbye\n', timedOut: false });
    expect(time.pending).toBe(0);
  });
});
