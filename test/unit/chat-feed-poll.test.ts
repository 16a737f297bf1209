/**
 * The chat feed's poll on FakeTime: with the watch's read held off (readMs far away), a message
 * appended to a room is read by the poll every pollMs and told notifyMs later; no poll timer is
 * held while no room is followed, and dispose leaves none.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveChatFeed } from '../../src/client/feed/chat-feed.js';
import { appendChat } from '../../src/state/chat-store.js';
import { FakeTime } from '../helpers/fake-time.js';
import { destroyHome, makeHome } from '../helpers/home.js';

let home: string;
let feed: LiveChatFeed | null = null;
beforeEach(() => {
  home = makeHome('ab-chat-poll-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

const human = (text: string) => ({ from: 'human', kind: 'human' as const, text, mentions: [] });

describe('LiveChatFeed poll (FakeTime)', () => {
  it('reads appends every pollMs and notifies notifyMs after', async () => {
    const time = new FakeTime();
    const f = (feed = new LiveChatFeed(home, { scheduler: time, pollMs: 2000, notifyMs: 50, readMs: 1e9 }));
    expect(time.pending).toBe(0); // nothing followed: no poll
    let notified = 0;
    f.onChange(() => notified++);
    f.openRoom('r1');
    time.advance(50);
    expect(notified).toBe(1); // the open room changed
    expect(f.chat?.records).toEqual([]);

    await appendChat(home, 'r1', human('hello'));
    time.advance(1949); // the poll runs every 2000 from when the room was followed
    expect(f.chat?.records).toEqual([]); // the watch's read waits (readMs), the poll is not due
    time.advance(1);
    expect(f.chat?.records.map((r) => r.text)).toEqual(['hello']);
    expect(notified).toBe(1);
    time.advance(50);
    expect(notified).toBe(2);

    time.advance(2000); // a poll that finds nothing new says nothing
    time.advance(50);
    expect(notified).toBe(2);

    f.openRoom(null);
    time.advance(50);
    f.dispose();
    expect(time.pending).toBe(0);
  });
});
