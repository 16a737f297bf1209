import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOST_WRITE_COALESCE_MS, HostWriter } from '../../src/runner/session/host-writer.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { realClock, realScheduler } from '../../src/state/real-time.js';
import { FakeTime } from '../helpers/fake-time.js';

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

describe('a host.json the disk refuses (issue 28)', () => {
  const quotaOr = (code: string) => Object.assign(new Error(`${code}: refused, write`), { code, syscall: 'write' });

  it.each(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES'])('%s: the runner goes on, says so to its watchers at every beat, tells the log once, leaves no temporary file, and writes again by itself', (code) => {
    vi.useRealTimers();
    const time = new FakeTime(Date.parse('2026-01-01T00:00:00.000Z'));
    const file = path.join(dir, 'host.json');
    const errors: string[] = [];
    const recovered: string[] = [];
    const w = new HostWriter({
      file,
      record: { id: 'x', name: 'x', status: 'running', heartbeatAt: '' } as unknown as HostRecord,
      clock: time,
      scheduler: time,
      heartbeatMs: 1000,
      onError: (e) => errors.push(e.message),
      onRecovered: (c, since) => recovered.push(`${c} since ${since}`),
    });
    const pushed: HostRecord[] = [];
    w.onWrite((r) => void pushed.push(r));
    w.startHeartbeat();
    time.advance(1000);
    expect(pushed).toHaveLength(0); // a heartbeat that was written: nobody is woken

    const spy = vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw quotaOr(code);
    });
    time.advance(3000);
    expect(errors).toEqual([`${code}: refused, write`]); // once, not at every beat
    expect(w.record).toMatchObject({ cannotWrite: code, cannotWriteSince: '2026-01-01T00:00:02.000Z' });
    // Every beat reaches the watchers instead: their proof that this runner lives.
    expect(pushed.map((r) => [r.cannotWrite, r.heartbeatAt])).toEqual([
      [code, '2026-01-01T00:00:02.000Z'],
      [code, '2026-01-01T00:00:03.000Z'],
      [code, '2026-01-01T00:00:04.000Z'],
    ]);
    expect(w.saved).toBe(false);
    // A change a client waits on is taken back, not written later behind its back.
    expect(w.commit({ name: 'renamed' })).toBe(code);
    expect(w.record.name).toBe('x');
    expect(fs.readdirSync(dir)).toEqual(['host.json']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'x', heartbeatAt: '2026-01-01T00:00:01.000Z' });

    spy.mockRestore();
    pushed.length = 0;
    time.advance(1000);
    expect(recovered).toEqual([`${code} since 2026-01-01T00:00:02.000Z`]);
    expect(pushed).toHaveLength(1); // the note's end is pushed, heartbeat or not
    expect(pushed[0]!.cannotWrite).toBeUndefined();
    expect(w.saved).toBe(true);
    const onDisk = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(onDisk)).toMatchObject({ name: 'x', heartbeatAt: '2026-01-01T00:00:05.000Z' });
    expect(onDisk).not.toContain('cannotWrite');
    expect(w.commit({ name: 'renamed' })).toBeNull();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).name).toBe('renamed');
    w.dispose();
  });
});
