/**
 * `lost` after a real reboot (src/state/host-store.ts): pids start over, so a record whose runner
 * pid is alive but names another process (another boot, another start time) is lost; a program
 * left behind is signalled only when it is still that program (leftoverProgram). The test's own
 * process stands in for a live pid.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/protocol.js';
import { isRunnerAlive, leftoverProgram, viewOf } from '../../src/state/host-store.js';
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
