import { describe, expect, it } from 'vitest';
import { KillRequest, SIGNAL_KILL_WINDOW_MS } from '../../src/runner/session/kill-request.js';
import { FakeTime } from '../helpers/fake-time.js';

describe('KillRequest: whether an exit was asked for', () => {
  it('nobody asked: the exit is the program’s own (a failure when it was a signal)', () => {
    expect(new KillRequest(new FakeTime()).killedWith()).toBeUndefined();
  });

  it('a terminate (kill, x, restart, rm --force) makes the exit a kill, however long the program takes', () => {
    const time = new FakeTime();
    const k = new KillRequest(time);
    k.ask('SIGTERM', true);
    time.advance(60_000);
    expect(k.killedWith()).toBe('SIGTERM');
  });

  it('one ending signal alone counts for an exit within its window, not for one long after', () => {
    const time = new FakeTime();
    const k = new KillRequest(time);
    k.ask('SIGINT', false);
    time.advance(SIGNAL_KILL_WINDOW_MS);
    expect(k.killedWith()).toBe('SIGINT');
    time.advance(1);
    expect(k.killedWith()).toBeUndefined();
  });

  it('a signal that asks for something else (USR1, WINCH) is no request to end', () => {
    const k = new KillRequest(new FakeTime());
    k.ask('SIGUSR1', false);
    k.ask('SIGWINCH', false);
    expect(k.killedWith()).toBeUndefined();
  });

  it('a single signal after a terminate does not shorten it', () => {
    const time = new FakeTime();
    const k = new KillRequest(time);
    k.ask('SIGTERM', true);
    k.ask('SIGINT', false);
    time.advance(SIGNAL_KILL_WINDOW_MS * 2);
    expect(k.killedWith()).toBe('SIGTERM');
  });
});
