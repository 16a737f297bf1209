/**
 * The sessions as a user sees them are seen at the time of the clock given (src/state/host-store.ts):
 * a runner whose heartbeat is stale on that clock is `lost`, whatever the real time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_STALE_MS } from '../../src/core/protocol/host-status.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { listSessions, viewOf, writeHostFile } from '../../src/state/host-store.js';
import { hostFile, sessionDir } from '../../src/state/paths.js';
import { FakeTime } from '../helpers/fake-time.js';

const BEAT = Date.parse('2025-06-01T12:00:00.000Z');

function record(id: string): HostRecord {
  const at = new Date(BEAT).toISOString();
  return {
    id, name: `s-${id}`, agent: 'shell', command: 'bash', args: [], cwd: '/tmp',
    createdAt: at, updatedAt: at, heartbeatAt: at, lastOutputAt: null,
    // This process stands in for a live runner.
    runnerPid: process.pid, childPid: null, generation: 'g', status: 'running', cols: 80, rows: 24,
    exitCode: null, exitSignal: null, scrollback: 1000,
  };
}

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-hosts-'));
  fs.mkdirSync(sessionDir(home, 'a1b2c3d4'), { recursive: true });
  writeHostFile(hostFile(home, 'a1b2c3d4'), record('a1b2c3d4'), false);
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('listSessions on a given clock', () => {
  it('a fresh heartbeat on the clock is running; the same record later on the clock is lost', () => {
    expect(listSessions(home, new FakeTime(BEAT + 1000))[0]).toMatchObject({ id: 'a1b2c3d4', status: 'running', runnerAlive: true });
    const later = new FakeTime(BEAT);
    later.advance(HEARTBEAT_STALE_MS + 1);
    expect(listSessions(home, later)[0]).toMatchObject({ id: 'a1b2c3d4', status: 'lost', runnerAlive: true });
  });

  it('viewOf judges at the time it is given', () => {
    expect(viewOf(record('x'), BEAT + HEARTBEAT_STALE_MS).status).toBe('running');
    expect(viewOf(record('x'), BEAT + HEARTBEAT_STALE_MS + 1).status).toBe('lost');
  });
});
