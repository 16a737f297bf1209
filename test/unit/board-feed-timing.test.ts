/**
 * The board feed's own timing, on FakeTime: notifications coalesced into one per notifyMs, a
 * folder seen before its host.json looked at again after pendingRetryMs, the sweep re-armed, and a
 * subscriber that throws told as an onError event while the feed carries on.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEED_BUG_MESSAGE, LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import type { FeedError } from '../../src/client/feed/board-api.js';
import { sessionDir } from '../../src/state/paths.js';
import { fakeSession } from '../helpers/chat.js';
import { FakeTime } from '../helpers/fake-time.js';
import { destroyHome, makeHome } from '../helpers/home.js';

let home: string;
let feed: LiveBoardFeed | null = null;
beforeEach(() => {
  home = makeHome('ab-feed-time-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

const open = (time: FakeTime, o: { notifyMs?: number; pendingRetryMs?: number; sweepMs?: number } = {}) =>
  (feed = new LiveBoardFeed(home, { clock: time, scheduler: time, notifyMs: 50, pendingRetryMs: 40, sweepMs: 0, ...o }));

describe('LiveBoardFeed timing (FakeTime)', () => {
  it('coalesces the changes of one scan into one notification, notifyMs later', () => {
    for (const name of ['a', 'b', 'c']) fakeSession(home, name);
    const time = new FakeTime();
    const f = open(time);
    let notified = 0;
    f.onChange(() => notified++);
    expect(f.sessions.map((s) => s.name).sort()).toEqual(['a', 'b', 'c']);
    time.advance(49);
    expect(notified).toBe(0);
    time.advance(1);
    expect(notified).toBe(1);
    time.advance(1000);
    expect(notified).toBe(1); // nothing changed since
  });

  it('looks again at a folder with no host.json yet after pendingRetryMs', () => {
    const time = new FakeTime();
    const id = 'abcd1234';
    fs.mkdirSync(sessionDir(home, id), { recursive: true, mode: 0o700 });
    const f = open(time);
    expect(f.sessions).toEqual([]);
    expect(time.pending).toBe(1); // the retry, and nothing else (no sweep in this test)
    // `new` finishes writing it meanwhile: seen at the next look, not before.
    fs.rmSync(sessionDir(home, id), { recursive: true });
    const real = fakeSession(home, 'late');
    time.advance(39);
    expect(f.sessions).toEqual([]);
    time.advance(1);
    expect(f.sessions.map((s) => s.id)).toEqual([real]);
  });

  it('re-arms its one sweep timer, and holds no timer once disposed', () => {
    const time = new FakeTime();
    const f = open(time, { sweepMs: 5000 });
    expect(time.pending).toBe(1);
    time.advance(5000);
    expect(time.pending).toBe(1); // armed again
    time.advance(15_000);
    expect(time.pending).toBe(1);
    f.dispose();
    expect(time.pending).toBe(0);
  });

  it('a subscriber that throws is an onError event; the others still hear, and the feed goes on', async () => {
    fakeSession(home, 'a');
    const time = new FakeTime();
    const f = open(time);
    const errors: FeedError[] = [];
    f.onError((e) => errors.push(e));
    let heard = 0;
    f.onChange(() => {
      throw new Error('boom');
    });
    f.onChange(() => heard++);
    time.advance(50);
    expect(heard).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.detail).toMatch(/^board feed: a subscriber threw: Error: boom/);
    expect(errors[0]!.userMessage).toBe(FEED_BUG_MESSAGE);
    // Still working: a new session is seen (the folder's watch asks for a rescan) and told.
    expect(time.pending).toBe(0);
    fakeSession(home, 'b');
    await vi.waitFor(() => expect(time.pending).toBe(1), { timeout: 5000 });
    time.advance(50);
    expect(f.sessions.map((s) => s.name).sort()).toEqual(['a', 'b']);
    time.advance(50);
    await Promise.resolve(); // after a quiet spell the subscribers hear in a microtask (src/client/feed/frame-throttle.ts)
    expect(heard).toBe(2);
    expect(errors).toHaveLength(2);
  });
});
