import { describe, expect, it } from 'vitest';
import { PtyHost } from '../../src/runner/pty/pty-host.js';
import { realScheduler } from '../../src/state/real-time.js';

/**
 * PtyHost writes input to the master fd itself (synchronously, for keystroke
 * latency). A write bigger than the PTY takes at once, and writes queued
 * behind it, must still all arrive, whole and in order.
 */
function rawCat(): PtyHost {
  return new PtyHost({
    command: 'sh',
    args: ['-c', 'stty raw -echo; printf READY; exec cat'],
    cwd: process.cwd(),
    env: { ...process.env } as Record<string, string>,
    cols: 80,
    rows: 24,
    scheduler: realScheduler(),
  });
}

describe('PtyHost input', () => {
  it('a write far bigger than the PTY buffer, with small writes after it, arrives whole and in order', async () => {
    const host = rawCat();
    let out = '';
    host.onData((d) => (out += d));
    const until = (pred: () => boolean, ms: number) =>
      new Promise<void>((resolve, reject) => {
        const end = Date.now() + ms;
        const tick = () => (pred() ? resolve() : Date.now() > end ? reject(new Error(`timed out; have ${out.length} chars`)) : setTimeout(tick, 10));
        tick();
      });
    try {
      await until(() => out.includes('READY'), 10_000);
      out = '';
      // 256 KiB of numbered, multi-byte text: many times what a PTY holds, so it goes in over several turns of the loop.
      const big = Array.from({ length: 4096 }, (_, i) => `${String(i).padStart(5, '0')}é中${'x'.repeat(54)}\n`).join('');
      const want = 'a' + big + 'b' + 'c'.repeat(10) + 'END';
      host.write('a');
      host.write(big);
      host.write('b');
      for (let i = 0; i < 10; i++) host.write('c');
      host.write('END');
      await until(() => out.endsWith('END'), 20_000);
      expect(out.length).toBe(want.length);
      expect(out === want).toBe(true);
    } finally {
      host.terminate(200);
      await new Promise<void>((resolve) => host.onExit(() => resolve()));
    }
  });

  it('keys as bytes from a buffer the reader reuses: what waits is a copy, so the program gets what was read', async () => {
    const host = rawCat();
    let out = '';
    host.onData((d) => (out += d));
    const until = (pred: () => boolean, ms: number) =>
      new Promise<void>((resolve, reject) => {
        const end = Date.now() + ms;
        const tick = () => (pred() ? resolve() : Date.now() > end ? reject(new Error(`timed out; have ${out.length} chars`)) : setTimeout(tick, 10));
        tick();
      });
    try {
      await until(() => out.includes('READY'), 10_000);
      out = '';
      // As direct input does: one buffer, refilled by each read. The first fill is far more than the PTY takes at once.
      const buffer = Buffer.alloc(128 * 1024);
      const first = Array.from({ length: 2048 }, (_, i) => `${String(i).padStart(5, '0')}${'y'.repeat(58)}\n`).join('');
      const n = buffer.write(first, 'latin1');
      host.writeBytes(buffer.subarray(0, n));
      buffer.fill('z'); // the next read overwrites the buffer while the first one's tail still waits
      const m = buffer.write('NEXT-END', 'latin1');
      host.writeBytes(buffer.subarray(0, m));
      await until(() => out.endsWith('NEXT-END'), 20_000);
      expect(out.length).toBe(first.length + m);
      expect(out === first + 'NEXT-END').toBe(true);
    } finally {
      host.terminate(200);
      await new Promise<void>((resolve) => host.onExit(() => resolve()));
    }
  });

  it('input written after the child exited is dropped, not written to a closed descriptor', async () => {
    const host = new PtyHost({ command: 'sh', args: ['-c', 'exit 0'], cwd: process.cwd(), env: { ...process.env } as Record<string, string>, cols: 80, rows: 24, scheduler: realScheduler() });
    await new Promise<void>((resolve) => host.onExit(() => resolve()));
    expect(host.hasExited).toBe(true);
    expect(() => host.write('after exit')).not.toThrow();
  });
});
