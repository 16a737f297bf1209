/**
 * The session's size when clients come and go (src/runner/clients/size-policy.ts): the latest active
 * interactive client's size, and when the last of them leaves, the size from before them: at once
 * after a detach, a while after a dropped connection (it may reconnect).
 */
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { ClientConn } from '../../src/runner/clients/client-conn.js';
import { ClientSet } from '../../src/runner/clients/client-set.js';
import { REST_AFTER_DROP_MS, SizePolicy } from '../../src/runner/clients/size-policy.js';
import { FakeSocket } from '../helpers/fake-socket.js';
import { FakeTime } from '../helpers/fake-time.js';

function setup(cols = 200, rows = 50) {
  const time = new FakeTime();
  const record = { cols, rows } as HostRecord;
  const host = { record, update: (p: Partial<HostRecord>) => Object.assign(record, p) };
  const resizes: string[] = [];
  const clients = new ClientSet();
  const policy = new SizePolicy({
    pty: { resize: (c, r) => void resizes.push(`${c}x${r}`) },
    model: { resize: () => undefined },
    host,
    clients,
    clock: time,
    scheduler: time,
    exited: () => false,
  });
  const join = (readOnly = false) => {
    const c = new ClientConn(new FakeSocket().asSocket, () => undefined);
    c.greet({ readOnly, name: 'test' });
    clients.add(c);
    return c;
  };
  const leave = (c: ClientConn, detach: boolean) => {
    if (detach) c.detach();
    clients.remove(c);
    policy.left(c);
  };
  const size = () => `${record.cols}x${record.rows}`;
  return { time, policy, join, leave, size, resizes };
}

describe('SizePolicy', () => {
  it('an attach borrows the size and gives it back when it detaches', () => {
    const t = setup();
    const phone = t.join();
    t.policy.resizeFor(phone, 100, 20);
    expect(t.size()).toBe('100x20');
    t.leave(phone, true);
    expect(t.size()).toBe('200x50');
  });

  it('with two attaches, the size goes to the one left, then back to the first size', () => {
    const t = setup();
    const a = t.join();
    t.time.advance(1);
    t.policy.resizeFor(a, 120, 40);
    const b = t.join();
    t.time.advance(1);
    t.policy.resizeFor(b, 100, 20);
    t.leave(b, true);
    expect(t.size()).toBe('120x40');
    t.leave(a, true);
    expect(t.size()).toBe('200x50');
  });

  it('a dropped connection keeps its size while it may reconnect, and gives it back after', () => {
    const t = setup();
    const c = t.join();
    t.policy.resizeFor(c, 100, 20);
    t.leave(c, false);
    t.time.advance(REST_AFTER_DROP_MS - 1);
    expect(t.size()).toBe('100x20');
    t.time.advance(1);
    expect(t.size()).toBe('200x50');
  });

  it('a reconnect within the wait keeps the size, with no resize at all, and its detach still gives back the first size', () => {
    const t = setup();
    const c = t.join();
    t.policy.resizeFor(c, 100, 20);
    t.leave(c, false);
    t.time.advance(1000);
    const again = t.join();
    t.policy.resizeFor(again, 100, 20);
    t.time.advance(REST_AFTER_DROP_MS * 2);
    expect(t.resizes).toEqual(['100x20']);
    t.leave(again, true);
    expect(t.size()).toBe('200x50');
  });

  it('a read-only viewer never sizes the session, coming or going', () => {
    const t = setup();
    const viewer = t.join(true);
    t.leave(viewer, true);
    const c = t.join();
    t.policy.resizeFor(c, 100, 20);
    const phone = t.join(true);
    t.leave(phone, true);
    expect(t.size()).toBe('100x20');
    expect(t.resizes).toEqual(['100x20']);
  });
});
