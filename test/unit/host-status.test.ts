import { describe, expect, it } from 'vitest';
import { effectiveStatus, heartbeatStale, HEARTBEAT_INTERVAL_MS, HEARTBEAT_STALE_MS } from '../../src/core/protocol/host-status.js';
import type { HostRecord, SessionStatus } from '../../src/core/protocol/host-record.js';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');

function host(status: SessionStatus, heartbeatAgoMs: number | string): HostRecord {
  const heartbeatAt = typeof heartbeatAgoMs === 'string' ? heartbeatAgoMs : new Date(NOW - heartbeatAgoMs).toISOString();
  return {
    id: 'a1b2c3d4', name: 'api', agent: 'shell', command: 'bash', args: [], cwd: '/tmp',
    createdAt: heartbeatAt, updatedAt: heartbeatAt, heartbeatAt, lastOutputAt: null,
    runnerPid: 123, childPid: 456, generation: 'g', status, cols: 80, rows: 24,
    exitCode: null, exitSignal: null, scrollback: 1000,
  };
}

describe('effectiveStatus', () => {
  it.each(['exited', 'lost'] as const)('keeps %s whatever the runner and heartbeat say', (status) => {
    expect(effectiveStatus(host(status, 0), true, NOW)).toBe(status);
    expect(effectiveStatus(host(status, 0), false, NOW)).toBe(status);
    expect(effectiveStatus(host(status, 10 * HEARTBEAT_STALE_MS), true, NOW)).toBe(status);
  });

  it.each(['running', 'starting'] as const)('a dead runner makes %s lost, even with a fresh heartbeat', (status) => {
    expect(effectiveStatus(host(status, 0), false, NOW)).toBe('lost');
  });

  it.each(['running', 'starting'] as const)('a stale heartbeat makes %s lost even if the pid answers', (status) => {
    expect(effectiveStatus(host(status, HEARTBEAT_STALE_MS + 1), true, NOW)).toBe('lost');
    expect(effectiveStatus(host(status, 24 * 3600_000), true, NOW)).toBe('lost');
  });

  it.each(['running', 'starting'] as const)('a live runner with a fresh heartbeat stays %s', (status) => {
    expect(effectiveStatus(host(status, 0), true, NOW)).toBe(status);
    expect(effectiveStatus(host(status, HEARTBEAT_INTERVAL_MS + 500), true, NOW)).toBe(status);
    expect(effectiveStatus(host(status, HEARTBEAT_STALE_MS), true, NOW)).toBe(status); // at the limit, not over it
  });

  it.each(['running', 'starting'] as const)('an identified runner (its boot and start time checked) with a stale heartbeat stays %s: it is asked, not called lost', (status) => {
    expect(effectiveStatus(host(status, HEARTBEAT_STALE_MS + 1), 'identified', NOW)).toBe(status);
    expect(effectiveStatus(host(status, HEARTBEAT_STALE_MS + 1), 'pid', NOW)).toBe('lost');
    expect(effectiveStatus(host(status, 0), 'gone', NOW)).toBe('lost');
    expect(heartbeatStale(host(status, HEARTBEAT_STALE_MS + 1), NOW)).toBe(true);
    expect(heartbeatStale(host(status, HEARTBEAT_STALE_MS), NOW)).toBe(false);
  });

  it('trusts a heartbeat slightly in the future (clock skew) as fresh', () => {
    expect(effectiveStatus(host('running', -2000), true, NOW)).toBe('running');
  });

  it('falls back on the pid when the heartbeat cannot be read', () => {
    expect(effectiveStatus(host('running', 'not a date'), true, NOW)).toBe('running');
    expect(effectiveStatus(host('running', ''), false, NOW)).toBe('lost');
  });
});
