import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRecord } from '../../src/core/chat/chat.js';
import { appendChat, ChatCursor, readChat } from '../../src/state/chat-store.js';
import { withFileLock } from '../../src/state/file-lock.js';
import { chatFile, chatLockFile, guardCacheFile, roomDir } from '../../src/state/paths.js';
import { realClock, realScheduler } from '../../src/state/real-time.js';
import { writeRoomConfig } from '../../src/state/rooms.js';
import { FakeTime } from '../helpers/fake-time.js';
import { makeHome, ROOT } from '../helpers/home.js';

/** These tests race real processes, so the lock waits by the real clock (test/unit/file-lock.test.ts drives it with a fake one). */
const REAL_TIME = { clock: realClock, scheduler: realScheduler() };
const POSTER = path.join(ROOT, 'test', 'fixtures', 'programs', 'chat-poster.mjs');

let home: string;
beforeEach(() => {
  home = makeHome('ab-chat-');
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function runPosters(room: string, writers: number, each: number, kind: 'human' | 'agent'): Promise<void> {
  const runs = Array.from({ length: writers }, (_, w) => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [POSTER, home, room, `w${w}`, String(each), kind], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer w${w} exited ${code}: ${err}`))));
  }));
  return Promise.all(runs).then(() => undefined);
}

const post = (room: string, from: string, kind: 'human' | 'agent', text = 'x') => appendChat(home, room, { from, kind, text, mentions: [] });
const lines = (room: string) => fs.readFileSync(chatFile(home, room), 'utf8').split('\n');

describe('chat store', () => {
  it('8 processes posting 500 messages each leave 4,000 whole lines with unique, strictly increasing ids', async () => {
    const started = Date.now();
    await runPosters('crowd', 8, 500, 'human');
    const elapsed = Date.now() - started;
    const raw = lines('crowd');
    expect(raw.pop()).toBe(''); // the file ends with a newline
    expect(raw).toHaveLength(4000);
    const records = raw.map((l) => JSON.parse(l) as ChatRecord);
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 4000 }, (_, i) => i + 1));
    // Each writer's own messages are in its order, and none is lost or doubled.
    for (let w = 0; w < 8; w++) {
      const mine = records.filter((r) => r.from === `w${w}`).map((r) => Number(r.text.split(' ')[1]));
      expect(mine).toEqual(Array.from({ length: 500 }, (_, i) => i));
    }
    expect(fs.readdirSync(roomDir(home, 'crowd')).sort()).toEqual(['chat.jsonl', 'guard.json']); // no lock or temporary file left
    expect(fs.statSync(chatFile(home, 'crowd')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(roomDir(home, 'crowd')).mode & 0o777).toBe(0o700);
    console.log(`chat store: 4,000 posts from 8 processes in ${elapsed} ms`);
  }, 120_000);

  it('the loop guard decides inside the lock: concurrent agents pause the room exactly once, at maxHops', async () => {
    writeRoomConfig(home, 'loop', { maxHops: 50 });
    await runPosters('loop', 4, 40, 'agent');
    const records = readChat(home, 'loop');
    expect(records).toHaveLength(161);
    const system = records.filter((r) => r.kind === 'system');
    expect(system).toHaveLength(1);
    expect(system[0]).toMatchObject({ id: 51, event: 'pause', from: 'system', text: expect.stringMatching(/^loop guard: 50 agent messages/) });
    expect(records.slice(0, 50).every((r) => r.kind === 'agent')).toBe(true);
  }, 60_000);

  it('a post after a torn last line starts on a fresh line, and readers skip the torn one', async () => {
    await post('torn', 'ann', 'human', 'one');
    await post('torn', 'ann', 'human', 'two');
    fs.appendFileSync(chatFile(home, 'torn'), '{"id":3,"ts":"2025-');
    expect(readChat(home, 'torn').map((r) => r.text)).toEqual(['one', 'two']);
    const r = await post('torn', 'ann', 'human', 'three');
    expect(r.record.id).toBe(3);
    const raw = lines('torn');
    expect(raw).toEqual([expect.any(String), expect.any(String), '{"id":3,"ts":"2025-', expect.stringContaining('"three"'), '']);
    expect(readChat(home, 'torn').map((r) => r.id)).toEqual([1, 2, 3]);
    expect(readChat(home, 'torn', 2).map((r) => r.text)).toEqual(['three']);
  });

  it('finds the last id behind lines longer than its read-back chunk, and behind garbage', async () => {
    const long = 'é€'.repeat(30_000); // 150 KB of UTF-8 in one line
    await post('long', 'ann', 'human', 'first');
    await post('long', 'ann', 'human', long);
    fs.appendFileSync(chatFile(home, 'long'), 'not json\n{"id":"x"}\n');
    const r = await post('long', 'ann', 'human', 'after');
    expect(r.record.id).toBe(3);
    expect(readChat(home, 'long').map((x) => x.text.length)).toEqual([5, long.length, 5]);
  });

  it('takes over a lock left by a dead process, or one too old to be held', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    fs.mkdirSync(roomDir(home, 'stale'), { recursive: true, mode: 0o700 });
    const lock = chatLockFile(home, 'stale');
    fs.writeFileSync(lock, JSON.stringify({ pid: deadPid, host: os.hostname(), at: Date.now(), token: 't' }));
    let t = Date.now();
    expect((await post('stale', 'ann', 'human')).record.id).toBe(1);
    expect(Date.now() - t).toBeLessThan(2000);
    // Held by a live process (us, by another token) but a minute old: a hold lasts milliseconds.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere', at: 0, token: 'u' }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    t = Date.now();
    expect((await post('stale', 'ann', 'human')).record.id).toBe(2);
    expect(Date.now() - t).toBeLessThan(2000);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('waits for a live holder, and says so when it never lets go', async () => {
    const lock = path.join(home, 'x.lock');
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      fs.writeFileSync(lock, JSON.stringify({ pid: live.pid, host: os.hostname(), at: Date.now(), token: 'v' }));
      await expect(withFileLock(lock, () => 1, REAL_TIME, { timeoutMs: 300, what: 'the test room' })).rejects.toThrow(/the test room is busy.*held by pid \d+/);
      expect(fs.existsSync(lock)).toBe(true); // a live, fresh holder's lock is never broken
      const t = Date.now();
      setTimeout(() => fs.rmSync(lock), 200); // the holder lets go
      expect(await withFileLock(lock, () => 'mine', REAL_TIME)).toBe('mine');
      expect(Date.now() - t).toBeGreaterThanOrEqual(190);
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('rebuilds the guard from the chat when its cache is missing or behind', async () => {
    writeRoomConfig(home, 'cache', { maxHops: 4 });
    for (let i = 0; i < 4; i++) await post('cache', 'alice', 'agent');
    expect(readChat(home, 'cache').at(-1)).toMatchObject({ id: 5, event: 'pause' });
    fs.rmSync(guardCacheFile(home, 'cache'));
    let r = await post('cache', 'alice', 'agent');
    expect(r.guard).toEqual({ hops: 5, paused: true });
    expect(r.system).toBeNull(); // paused already: no second pause note
    fs.writeFileSync(guardCacheFile(home, 'cache'), JSON.stringify({ lastId: 2, hops: 0, paused: false }));
    r = await post('cache', 'ann', 'human', '/continue');
    expect(r.system).toMatchObject({ id: 8, event: 'resume', text: 'resumed by ann' });
    expect(r.guard).toEqual({ hops: 0, paused: false });
  });

  it('a cursor returns only new whole records, and starts over on a replaced file', async () => {
    const cursor = new ChatCursor(chatFile(home, 'cur'));
    expect(cursor.read()).toEqual([]);
    await post('cur', 'ann', 'human', 'a');
    await post('cur', 'ann', 'human', 'b');
    expect(cursor.read().map((r) => r.text)).toEqual(['a', 'b']);
    expect(cursor.read()).toEqual([]);
    const file = chatFile(home, 'cur');
    const partial = JSON.stringify({ id: 3, ts: 't', from: 'ann', kind: 'human', text: 'c', mentions: [] });
    fs.appendFileSync(file, partial.slice(0, 10));
    expect(cursor.read()).toEqual([]);
    fs.appendFileSync(file, partial.slice(10) + '\n');
    expect(cursor.read().map((r) => r.text)).toEqual(['c']);
    // Rewritten in place (another inode): only ids above the last one seen come back.
    const all = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(`${file}.new`, all + JSON.stringify({ id: 4, ts: 't', from: 'ann', kind: 'human', text: 'd', mentions: [] }) + '\n');
    fs.renameSync(`${file}.new`, file);
    expect(cursor.read().map((r) => r.text)).toEqual(['d']);
  });

  it('stamps a post, and the guard\'s note with it, by the clock it is given', async () => {
    writeRoomConfig(home, 'stamped', { maxHops: 4 });
    const time = new FakeTime(Date.UTC(2026, 0, 2, 3, 4, 5));
    const at = { clock: time, scheduler: time };
    const agent = (text: string) => appendChat(home, 'stamped', { from: 'alice', kind: 'agent', text, mentions: [] }, at);
    expect((await agent('one')).record.ts).toBe('2026-01-02T03:04:05.000Z');
    await agent('two');
    await agent('three');
    time.advance(1500);
    const r = await agent('four');
    expect(r.record.ts).toBe('2026-01-02T03:04:06.500Z');
    expect(r.system).toMatchObject({ event: 'pause', ts: '2026-01-02T03:04:06.500Z' });
  });
});
