/**
 * `lost` after a real reboot (src/state/host-store.ts): pids start over, so a record whose runner
 * pid is alive but names another process (another boot, another start time) is lost; a program
 * left behind is signalled only when it is still that program (leftoverProgram). The test's own
 * process stands in for a live pid.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { isRunnerAlive, leftoverProgram, runnerLiveness, viewOf } from '../../src/state/host-store.js';
import { feedView } from '../../src/client/feed/feed-records.js';
import { HEARTBEAT_STALE_MS } from '../../src/core/protocol/host-status.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';

const NOW = Date.parse('2026-01-01T12:00:00.000Z');

function record(extra: Partial<HostRecord> = {}): HostRecord {
  const at = new Date(NOW).toISOString();
  return {
    id: 'a1b2c3d4', name: 'alice', agent: 'shell', command: 'bash', args: [], cwd: '/tmp',
    createdAt: at, updatedAt: at, heartbeatAt: at, lastOutputAt: null,
    runnerPid: process.pid, childPid: null, generation: 'g', status: 'running', cols: 80, rows: 24,
    exitCode: null, exitSignal: null, scrollback: 1000, ...extra,
  };
}

const me = { runnerBootId: bootId()!, runnerStartTime: processStartTime('self')! };

describe('whether a record names a live runner', () => {
  it('this boot and this start time: alive and running', () => {
    expect(me.runnerBootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(isRunnerAlive(record(me))).toBe(true);
    expect(viewOf(record(me), NOW)).toMatchObject({ runnerAlive: true, status: 'running' });
  });

  it('a live pid from another boot is lost (the machine restarted, the pid was reused)', () => {
    const r = record({ ...me, runnerBootId: '00000000-0000-4000-8000-000000000000' });
    expect(isRunnerAlive(r)).toBe(false);
    expect(viewOf(r, NOW)).toMatchObject({ runnerAlive: false, status: 'lost' });
  });

  it('a live pid with another start time is lost (the pid was reused in this boot)', () => {
    const r = record({ ...me, runnerStartTime: String(Number(me.runnerStartTime) + 1) });
    expect(isRunnerAlive(r)).toBe(false);
    expect(viewOf(r, NOW).status).toBe('lost');
  });

  it('an older record without them: the pid alone, as before', () => {
    expect(viewOf(record(), NOW)).toMatchObject({ runnerAlive: true, status: 'running' });
  });
});

describe('a stale heartbeat (issue 28: a runner that cannot write is not lost)', () => {
  const later = NOW + HEARTBEAT_STALE_MS + 1;

  it('of a runner known by its boot and start time: its status kept, marked for asking, never lost on the file alone', () => {
    const v = viewOf(record(me), later);
    expect(v).toMatchObject({ runnerAlive: true, status: 'running', heartbeatStale: true });
    expect(runnerLiveness(record(me))).toBe('identified');
    expect(viewOf(record(me), NOW).heartbeatStale).toBeUndefined(); // fresh: nothing to ask
  });

  it('of a record that cannot say who its runner is (older, or not Linux): lost, as before (its pid may be anyone\'s)', () => {
    expect(runnerLiveness(record())).toBe('pid');
    expect(viewOf(record(), later)).toMatchObject({ runnerAlive: true, status: 'lost' });
    expect(viewOf(record(), later).heartbeatStale).toBeUndefined();
  });

  it('the board without a link: kept until the link has tried; unanswered, lost; open, judged by what the runner pushes', () => {
    const r = record(me);
    expect(feedView(r, later)).toMatchObject({ status: 'running', heartbeatStale: true });
    expect(feedView(r, later, { open: false, unanswered: false }).status).toBe('running');
    expect(feedView(r, later, { open: false, unanswered: true })).toMatchObject({ status: 'lost', runnerAlive: true });
    // Connected, the record is the pushed one: a runner that cannot write pushes every beat, so a stale one is wedged.
    expect(feedView(r, later, { open: true, unanswered: false }).status).toBe('lost');
    expect(feedView({ ...r, heartbeatAt: new Date(later).toISOString(), cannotWrite: 'ENOSPC' }, later, { open: true, unanswered: false })).toMatchObject({ status: 'running', cannotWrite: 'ENOSPC' });
  });
});

describe('a program left behind by a runner that died', () => {
  it('is signalled only when it is still that program of this boot', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => child.once('spawn', r));
      const pid = child.pid!;
      const start = processStartTime(pid)!;
      expect(leftoverProgram(record({ childPid: pid, childStartTime: start, runnerBootId: me.runnerBootId }))).toBe(pid);
      expect(leftoverProgram(record({ childPid: pid }))).toBe(pid);
      expect(leftoverProgram(record({ childPid: pid, childStartTime: String(Number(start) + 1) }))).toBeNull();
      expect(leftoverProgram(record({ childPid: pid, childStartTime: start, runnerBootId: '00000000-0000-4000-8000-000000000000' }))).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
