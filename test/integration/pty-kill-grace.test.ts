/** PtyHost's SIGTERM -> SIGKILL grace runs on the scheduler it was given: a child that ignores SIGTERM is killed when the grace is up, not before. */
import { describe, expect, it } from 'vitest';
import { PtyHost, type ChildExit } from '../../src/runner/pty/pty-host.js';
import { FakeTime } from '../helpers/fake-time.js';

const STUBBORN = "process.on('SIGTERM',()=>{});process.on('SIGHUP',()=>{});process.stdout.write('READY');setInterval(()=>{},1000)";
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PtyHost terminate', () => {
  it('sends SIGKILL only when the grace period is up on its scheduler', async () => {
    const time = new FakeTime();
    const host = new PtyHost({ command: process.execPath, args: ['-e', STUBBORN], cwd: process.cwd(), env: { ...process.env } as Record<string, string>, cols: 80, rows: 24, scheduler: time });
    let out = '';
    host.onData((d) => void (out += d));
    let exit: ChildExit | null = null;
    host.onExit((e) => (exit = e));
    while (!out.includes('READY')) await wait(20);
    host.terminate(1000);
    host.terminate(1000); // idempotent: one grace timer
    expect(time.pending).toBe(1);
    await wait(300);
    expect(exit).toBeNull(); // SIGTERM and SIGHUP ignored
    time.advance(999);
    await wait(200);
    expect(exit).toBeNull();
    time.advance(1);
    for (let i = 0; i < 100 && !exit; i++) await wait(20);
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(time.pending).toBe(0);
    host.dispose();
  });
});
