/**
 * The board's chat data on a real home: LiveChatFeed following rooms'
 * chat files (fs.watch on each room's folder, the poll off so the watch alone
 * is tested), and createBoardActions().postChat posting as the human.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveChatFeed } from '../../src/client/feed/chat-feed.js';
import { appendChat, readChat } from '../../src/state/chat-store.js';
import { UserError } from '../../src/state/errors.js';
import { chatFile } from '../../src/state/paths.js';
import { writeRoomConfig } from '../../src/state/rooms.js';
import { createBoardActions } from '../../src/client/board-actions/board-actions.js';
import { destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
let feed: LiveChatFeed | null = null;
beforeEach(() => {
  home = makeHome('ab-chat-feed-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

const open = () => (feed = new LiveChatFeed(home, { scheduler: REAL_TIME.scheduler, pollMs: 0, notifyMs: 10 }));
const human = (text: string) => ({ from: 'human', kind: 'human' as const, text, mentions: [] });
const agent = (from: string, text: string) => ({ from, kind: 'agent' as const, text, mentions: [] });

describe('LiveChatFeed', () => {
  it('reads a room at once, follows appends through the folder watch, and pauses and resumes with the loop guard', async () => {
    await appendChat(home, 'r1', human('hello'));
    const f = open();
    let notified = 0;
    f.onChange(() => notified++);
    f.watchRooms(['r1']);
    f.openRoom('r1');
    expect(f.chat?.room).toBe('r1');
    expect(f.chat?.records.map((r) => r.text)).toEqual(['hello']);
    expect(f.pausedRooms).toEqual([]);

    writeRoomConfig(home, 'r1', { maxHops: 4 });
    for (let i = 1; i <= 4; i++) await appendChat(home, 'r1', agent('ant', `ping ${i}`));
    await waitFor('r1 paused', () => f.pausedRooms.includes('r1'));
    expect(f.chat?.paused).toBe(true);
    expect(f.chat?.records.at(-1)).toMatchObject({ kind: 'system', event: 'pause' });
    expect(notified).toBeGreaterThan(0);

    await appendChat(home, 'r1', human('/continue'));
    await waitFor('r1 resumed', () => f.pausedRooms.length === 0);
    expect(f.chat?.records.at(-1)).toMatchObject({ kind: 'system', event: 'resume' });
    expect(f.chat?.records.map((r) => r.id)).toEqual(readChat(home, 'r1').map((r) => r.id));
  });

  it('a lower maxHops (room.json alone changes) pauses a room already past it', async () => {
    const f = open();
    f.watchRooms(['r1']);
    for (let i = 1; i <= 5; i++) await appendChat(home, 'r1', agent('ant', `ping ${i}`));
    await new Promise((r) => setTimeout(r, 100));
    expect(f.pausedRooms).toEqual([]);
    writeRoomConfig(home, 'r1', { maxHops: 4 });
    await waitFor('r1 paused by the config', () => f.pausedRooms.includes('r1'));
  });

  it('only watched rooms count for the banner; the open room is followed either way; rooms let go are not', async () => {
    writeRoomConfig(home, 'r2', { maxHops: 4 });
    const f = open();
    f.watchRooms(['r1', 'r2']);
    f.openRoom('r3');
    for (let i = 1; i <= 4; i++) await appendChat(home, 'r2', agent('bee', `ping ${i}`));
    await waitFor('r2 paused', () => f.pausedRooms.includes('r2'));
    f.watchRooms(['r1']);
    expect(f.pausedRooms).toEqual([]);
    await appendChat(home, 'r3', human('in r3'));
    await waitFor('the r3 post', () => f.chat?.records.length === 1);
    f.openRoom(null);
    expect(f.chat).toBeNull();
    // Invalid names (a hand-edited host.json) are left alone.
    f.watchRooms(['../etc']);
    f.openRoom('../etc');
    expect(f.chat).toBeNull();
  });

  it('reads only what was appended: a room with a torn last line shows the whole ones', async () => {
    await appendChat(home, 'r1', human('one'));
    fs.appendFileSync(chatFile(home, 'r1'), '{"id":2,"ts":"x","fr');
    const f = open();
    f.openRoom('r1');
    expect(f.chat?.records.map((r) => r.text)).toEqual(['one']);
  });
});

describe('createBoardActions().postChat', () => {
  it('posts as the human ($USER when it is a valid name), with mentions; /continue resumes a paused room', async () => {
    const actions = createBoardActions(home, REAL_TIME, { USER: 'carol' });
    writeRoomConfig(home, 'r1', { maxHops: 4 });
    const first = await actions.postChat('r1', 'hi all');
    expect(first).toEqual({ id: 1, event: null, paused: false });
    expect(readChat(home, 'r1')[0]).toMatchObject({ from: 'carol', kind: 'human', text: 'hi all' });

    for (let i = 1; i <= 4; i++) await appendChat(home, 'r1', agent('ant', `ping ${i}`));
    const whilePaused = await actions.postChat('r1', 'what is going on?');
    expect(whilePaused.paused).toBe(true);
    const resumed = await actions.postChat('r1', '/continue');
    expect(resumed.event).toBe('resume');
    expect(resumed.paused).toBe(false);
    expect(readChat(home, 'r1').at(-1)).toMatchObject({ kind: 'system', event: 'resume', text: 'resumed by carol' });
  });

  it('without a usable $USER the name is human', async () => {
    await createBoardActions(home, REAL_TIME, { USER: 'not a name!' }).postChat('default', 'x');
    await createBoardActions(home, REAL_TIME, {}).postChat('default', 'y');
    expect(readChat(home, 'default').map((r) => r.from)).toEqual(['human', 'human']);
  });

  it('errors are one-line UserErrors: an empty post, a bad room, a board inside an unknown session', async () => {
    const actions = createBoardActions(home, REAL_TIME, {});
    await expect(actions.postChat('r1', '   ')).rejects.toBeInstanceOf(UserError);
    await expect(actions.postChat('no/such', 'x')).rejects.toThrow(/invalid room/);
    const inside = createBoardActions(home, REAL_TIME, { AGENT_BOARD_SESSION: 'ghost' });
    await expect(inside.postChat('r1', 'x')).rejects.toThrow(/AGENT_BOARD_SESSION=ghost names no session/);
    expect(readChat(home, 'r1')).toEqual([]);
  });
});
