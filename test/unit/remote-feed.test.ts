/**
 * The board's feed over several machines (src/client/remote/remote-feed.ts) on the fake clock, with a
 * fake local feed and fake ssh children: local rows first, then each host's keyed `host/id`;
 * a row keeps its object while it shows the same (one change draws one row); the preview of a
 * remote row goes to that machine, never to a local session of the same id.
 */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerConnection } from '../../src/client/link/connection.js';
import { feedLine } from '../../src/client/remote/host-lines.js';
import { MultiHostFeed } from '../../src/client/remote/remote-feed.js';
import { FakeTime } from '../helpers/fake-time.js';
import { FakeFeed, session } from '../ui/fakes.js';

class FakeChild extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly stdin = new PassThrough();
  kill(): boolean {
    this.stdout.end();
    this.stderr.end();
    setImmediate(() => this.emit('close', null));
    return true;
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

let feed: MultiHostFeed | null = null;
afterEach(() => feed?.dispose());

function start(hosts: string[]) {
  const time = new FakeTime();
  const children = new Map<string, FakeChild>();
  const local = new FakeFeed([session({ id: 'abc', name: 'here' })]);
  const previews: string[] = [];
  feed = new MultiHostFeed(local, hosts, {
    home: '/nonexistent',
    time: { clock: time, scheduler: time },
    link: {
      open: (host) => {
        const c = new FakeChild();
        children.set(host, c);
        return c as unknown as ChildProcess;
      },
    },
    connect: (host, id) => {
      previews.push(`${host} ${id}`);
      return new Promise<RunnerConnection>(() => undefined);
    },
  });
  const say = (host: string, sessions: ReturnType<typeof session>[]) => children.get(host)!.stdout.write(feedLine({ type: 'sessions', sessions }) + '\n');
  return { time, local, feed, say, previews, children };
}

describe('the board feed over several machines', () => {
  it('lists local rows first, then each host’s by host and id; the same id is three rows', async () => {
    const { feed, say, time } = start(['alpha', 'beta']);
    expect(feed.sessions.map((s) => s.id)).toEqual(['abc']); // nothing waits for a host
    say('beta', [session({ id: 'abc', name: 'far' })]);
    say('alpha', [session({ id: 'abc', name: 'far' })]);
    await settle();
    time.advance(20);
    expect(feed.sessions.map((s) => [s.id, s.host ?? 'local'])).toEqual([['abc', 'local'], ['alpha/abc', 'alpha'], ['beta/abc', 'beta']]);
  });

  it('keeps each row’s object while it shows the same: a local change or a heartbeat draws no remote row', async () => {
    const { feed, say, local } = start(['alpha']);
    const far = session({ id: 'f1', name: 'far' });
    say('alpha', [far]);
    await settle();
    const before = feed.sessions[1]!;
    local.setSessions([session({ id: 'abc', name: 'here', previewLine: 'new' })]);
    expect(feed.sessions[1]).toBe(before);
    say('alpha', [{ ...far, heartbeatAt: new Date().toISOString() }]);
    await settle();
    expect(feed.sessions[1]).toBe(before);
    say('alpha', [{ ...far, previewLine: 'changed' }]);
    await settle();
    expect(feed.sessions[1]).not.toBe(before);
    expect(feed.sessions[1]!.previewLine).toBe('changed');
  });

  it('previews a remote row through its machine by its id there, and a local one through the local feed', async () => {
    const { feed, say, local, previews } = start(['alpha']);
    say('alpha', [session({ id: 'abc', name: 'far' })]);
    await settle();
    feed.setPreview('alpha/abc');
    await settle();
    expect(local.previewFor.at(-1)).toBeNull(); // never the local session abc
    expect(previews).toEqual(['alpha abc']);
    feed.setPreview('abc');
    await settle();
    expect(local.previewFor.at(-1)).toBe('abc');
    expect(previews).toEqual(['alpha abc']);
  });

  it('a host whose link drops: its rows stay, stale, and one line says so; they come back when it does', async () => {
    const { feed, say, children, time } = start(['alpha']);
    say('alpha', [session({ id: 'f1', name: 'far' })]);
    await settle();
    expect(feed.hostLines).toEqual([]);
    children.get('alpha')!.kill(); // as a cut link ends
    await settle();
    expect(feed.sessions.map((s) => [s.id, s.stale])).toEqual([['abc', undefined], ['alpha/f1', true]]);
    expect(feed.hostLines).toEqual(['alpha: unreachable (the link was cut); retrying in 1 s']);
    time.advance(1000); // a new link
    say('alpha', [session({ id: 'f1', name: 'far' })]);
    await settle();
    expect(feed.sessions.map((s) => [s.id, s.stale])).toEqual([['abc', undefined], ['alpha/f1', undefined]]);
    expect(feed.hostLines).toEqual([]);
  });
});
