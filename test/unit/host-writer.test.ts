import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { HOST_WRITE_COALESCE_MS, HostWriter } from '../../src/runner/host-writer.js';
import type { HostRecord } from '../../src/core/protocol/protocol.js';
import { realClock, realScheduler } from '../../src/state/real-time.js';

let dir: string;
beforeEach(() => {
  vi.useFakeTimers();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-hw-'));
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('output that comes while a write is pending gets one more write after it, so the preview is the last screen', () => {
  let screen = 'working';
  // vitest's fake timers stand behind the real clock and scheduler here.
  const w = new HostWriter({
    file: path.join(dir, 'host.json'),
    record: { id: 'x', name: 'x' } as HostRecord,
    clock: realClock,
    scheduler: realScheduler(),
    onError: () => undefined,
    decorate: () => ({ previewLine: screen }),
  });
  const written: string[] = [];
  w.onWrite((r) => void written.push(r.previewLine ?? ''));
  w.noteOutput();
  vi.advanceTimersByTime(HOST_WRITE_COALESCE_MS - 1);
  w.noteOutput(); // the last chunk, not parsed yet when the pending write runs
  vi.advanceTimersByTime(1);
  expect(written).toEqual(['working']);
  screen = 'idle prompt'; // parsed a moment later
  vi.advanceTimersByTime(HOST_WRITE_COALESCE_MS);
  expect(written).toEqual(['working', 'idle prompt']);
  vi.advanceTimersByTime(10 * HOST_WRITE_COALESCE_MS);
  expect(written).toHaveLength(2); // and then quiet: no endless rewrites
  w.dispose();
});
