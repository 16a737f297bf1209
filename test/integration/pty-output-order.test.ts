import { describe, expect, it } from 'vitest';
import { PtyHost } from '../../src/runner/pty/pty-host.js';
import { realScheduler } from '../../src/state/real-time.js';

/**
 * A pause (the model's backlog bound pauses the PTY) queues reads in node-pty's stream, and a
 * resume lets them go on. Across many pauses mid-output, every byte must arrive once and in
 * order, and the end of output still comes before the exit.
 */
describe('PtyHost output', () => {
  it('arrives whole and in order across pauses and resumes mid-output', async () => {
    const lines = 20_000;
    const host = new PtyHost({
      command: 'sh',
      args: ['-c', `stty -onlcr; i=0; while [ $i -lt ${lines} ]; do echo "line $i é"; i=$((i+1)); done; echo END`],
      cwd: process.cwd(),
      env: { ...process.env } as Record<string, string>,
      cols: 80,
      rows: 24,
      scheduler: realScheduler(),
    });
    const chunks: string[] = [];
    let outputAtExit = -1;
    host.onData((d) => chunks.push(d));
    // Paused and resumed over and over while the shell prints: some reads land in the stream's queue.
    let paused = false;
    const flip = setInterval(() => {
      paused = !paused;
      if (paused) host.pause();
      else host.resume();
    }, 3);
    await new Promise<void>((resolve) =>
      host.onExit(() => {
        outputAtExit = chunks.length;
        resolve();
      }),
    );
    clearInterval(flip);
    host.resume();
    const out = chunks.join('');
    const want = Array.from({ length: lines }, (_, i) => `line ${i} é\n`).join('') + 'END\n';
    expect(out.length).toBe(want.length);
    expect(out === want).toBe(true);
    expect(outputAtExit).toBe(chunks.length);
  }, 60_000);
});
