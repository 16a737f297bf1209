import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/core/agents/activity.js';
import type { SessionStatus } from '../../src/core/protocol/host-record.js';
import { exitKind, sessionState, stateLabel, stateNote } from '../../src/core/session-state.js';
import { rowStatusText, statusText } from '../../src/core/board/board-derived.js';

const rec = (status: SessionStatus, activity?: Activity, exitCode: number | null = null, exitSignal: string | null = null) => ({ status, activity, exitCode, exitSignal });

describe('sessionState', () => {
  it('exited and lost come from the status, whatever the last activity was', () => {
    for (const a of [undefined, 'busy', 'idle', 'waiting'] as const) {
      expect(sessionState(rec('exited', a))).toBe('exited');
      expect(sessionState(rec('lost', a))).toBe('lost');
    }
  });

  it('a running session says what its activity says', () => {
    expect(sessionState(rec('running', 'busy'))).toBe('busy');
    expect(sessionState(rec('running', 'idle'))).toBe('idle');
    expect(sessionState(rec('running', 'waiting'))).toBe('waiting');
    expect(sessionState(rec('running', 'starting'))).toBe('starting');
  });

  it('starting while the status is starting, or before any activity was reported', () => {
    expect(sessionState(rec('starting'))).toBe('starting');
    expect(sessionState(rec('starting', 'busy'))).toBe('starting');
    expect(sessionState(rec('running'))).toBe('starting');
  });
});

describe('stateLabel', () => {
  it('is the state, with how an exited session ended', () => {
    expect(stateLabel(rec('running', 'busy'))).toBe('busy');
    expect(stateLabel(rec('running', 'waiting'))).toBe('waiting');
    expect(stateLabel(rec('exited', 'idle', 0))).toBe('exited(0)');
    expect(stateLabel(rec('exited', undefined, 2))).toBe('exited(2)');
    expect(stateLabel(rec('exited', undefined, null, 'SIGTERM'))).toBe('exited(SIGTERM)');
    expect(stateLabel(rec('lost', 'busy'))).toBe('lost');
  });

  it('says killed when a user asked for the end, with the signal or code it ended with', () => {
    expect(stateLabel({ ...rec('exited', undefined, null, 'SIGHUP'), killed: 'SIGTERM' })).toBe('killed(SIGHUP)');
    expect(stateLabel({ ...rec('exited', undefined, 143), killed: 'SIGTERM' })).toBe('killed(143)');
  });
});

describe('exitKind', () => {
  it('ok for code 0, killed when asked for (whatever the code or signal), else failed', () => {
    expect(exitKind(rec('exited', undefined, 0))).toBe('ok');
    expect(exitKind({ ...rec('exited', undefined, null, 'SIGHUP'), killed: 'SIGTERM' })).toBe('killed');
    expect(exitKind({ ...rec('exited', undefined, 0), killed: 'SIGTERM' })).toBe('killed');
    expect(exitKind(rec('exited', undefined, null, 'SIGHUP'))).toBe('failed'); // nobody asked: a failure
    expect(exitKind(rec('exited', undefined, 1))).toBe('failed');
  });
});

describe('a runner that cannot write its record (issue 28)', () => {
  const full = (status: SessionStatus, activity?: Activity, code = 'ENOSPC') => ({ ...rec(status, activity), cannotWrite: code });
  const row = (status: SessionStatus, activity?: Activity, code = 'ENOSPC') => ({ id: 'a', name: 'a', agent: 'shell', command: 'sh', args: [], ...full(status, activity, code) });

  it('says so after its state, in ls and on the board; the row\'s narrow column says the note (the glyph shows the state)', () => {
    expect(stateLabel(full('running', 'idle'))).toBe('idle · disk full');
    expect(stateLabel({ ...full('exited'), exitSignal: 'SIGTERM' })).toBe('exited(SIGTERM) · disk full');
    expect(stateLabel(full('running', 'busy', 'EDQUOT'))).toBe('busy · quota full');
    expect(stateLabel(full('running', 'idle', 'EROFS'))).toBe('idle · read-only');
    expect(stateLabel(full('running', 'idle', 'EACCES'))).toBe('idle · unwritable');
    expect(statusText(row('running', 'idle'))).toBe('idle · disk full');
    expect(rowStatusText(row('running', 'idle'))).toBe('disk full');
    expect(rowStatusText({ ...row('running', 'idle'), cannotWrite: undefined })).toBe('idle');
    for (const code of ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']) expect(rowStatusText(row('running', 'idle', code)).length).toBeLessThanOrEqual(10);
  });

  it('a lost session has no such note: lost is lost', () => {
    expect(stateNote(full('lost'))).toBeNull();
    expect(stateLabel(full('lost'))).toBe('lost');
  });
});
