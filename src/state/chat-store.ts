/**
 * rooms/<room>/chat.jsonl: one record a line, appended under the room's lock
 * (src/state/file-lock.ts). A post takes the lock, reads the last id from the
 * file's tail, appends its line (and the loop guard's system line, if the post
 * calls for one) with a single write, fsyncs, and lets go. So ids strictly
 * increase and a guard decision is never made on a stale count. Readers take
 * no lock: they parse whole lines and skip a torn last one.
 */
import fs from 'node:fs';
import {
  asChatRecord, guardNote, LOOP_START, stepLoopGuard, SYSTEM_SENDER,
  type ChatRecord, type LoopState,
} from '../core/chat/chat.js';
import { withFileLock } from './file-lock.js';
import type { Time } from '../core/clock.js';
import { realClock, realScheduler } from './real-time.js';
import { ensureRoomDir, readRoomConfig } from './rooms.js';
import { chatFile, chatLockFile, guardCacheFile } from './paths.js';
import { cannotWriteError, writeFailureCode, writeFileAtomic } from './write-errors.js';

export interface ChatPost {
  from: string;
  kind: 'human' | 'agent';
  text: string;
  mentions: string[];
}

export interface PostResult {
  record: ChatRecord;
  /** The loop guard's note, when this post paused or resumed the room. */
  system: ChatRecord | null;
  /** The guard after the post (paused by a pause record; see loopGuard for wakes). */
  guard: LoopState;
  maxHops: number;
}

/**
 * Appends a post to the room's chat, with the loop guard's check inside the same lock. `time`
 * stamps the record and paces the lock's wait; it is the real time unless given, since a post is
 * made by one-shot commands (the CLI's `chat`, the MCP server, the board) that have no other timer.
 */
export async function appendChat(home: string, room: string, post: ChatPost, time: Time = { clock: realClock, scheduler: realScheduler() }): Promise<PostResult> {
  const file = chatFile(home, room);
  try {
    return await appendLocked(home, room, file, post, time);
  } catch (err) {
    // The room's folder, its lock or the line itself: nothing was posted (a line cut short is cut back: writeOnce).
    const code = writeFailureCode(err);
    if (code !== null) throw cannotWriteError(`room ${room}'s chat`, file, code, 'post it again');
    throw err;
  }
}

async function appendLocked(home: string, room: string, file: string, post: ChatPost, time: Time): Promise<PostResult> {
  ensureRoomDir(home, room);
  return withFileLock(chatLockFile(home, room), (lock) => {
    const { maxHops } = readRoomConfig(home, room);
    const fd = fs.openSync(file, 'a+', 0o600);
    try {
      const size = fs.fstatSync(fd).size;
      const tail = tailRecord(fd, size);
      const lastId = tail.last?.id ?? 0;
      const before = readGuardCache(home, room, lastId) ?? replayGuard(readChatFile(file));
      const ts = new Date(time.clock.now()).toISOString();
      const record: ChatRecord = { id: lastId + 1, ts, from: post.from, kind: post.kind, text: post.text, mentions: post.mentions };
      const note = guardNote(before, record, maxHops);
      const system: ChatRecord | null = note
        ? { id: lastId + 2, ts, from: SYSTEM_SENDER, kind: 'system', text: note.text, mentions: [], event: note.event }
        : null;
      let guard = stepLoopGuard(before, record);
      if (system) guard = stepLoopGuard(guard, system);
      // A torn line left by a writer that died keeps to itself: we start on a fresh line.
      const lines = [record, ...(system ? [system] : [])].map((r) => JSON.stringify(r) + '\n').join('');
      const buf = Buffer.from((tail.endsWithNewline ? '' : '\n') + lines, 'utf8');
      lock.verify();
      writeOnce(fd, buf, size, file);
      fs.fsyncSync(fd);
      writeGuardCache(home, room, { lastId: (system ?? record).id, ...guard });
      return { record, system, guard, maxHops };
    } finally {
      fs.closeSync(fd);
    }
  }, time, { what: `chat room ${room}` });
}

/** One write; if it fails or falls short (a full disk), the file is cut back so no half line stays. */
function writeOnce(fd: number, buf: Buffer, size: number, file: string): void {
  let err: unknown = null;
  try {
    const n = fs.writeSync(fd, buf, 0, buf.length);
    if (n === buf.length) return;
    err = new Error(`short write to ${file} (${n} of ${buf.length} bytes)`);
  } catch (e) {
    err = e;
  }
  try {
    fs.ftruncateSync(fd, size);
  } catch {
    // readers skip a torn line anyway
  }
  throw err;
}

const TAIL_CHUNK = 64 * 1024;

/** The last whole, valid record of the file, read backwards from its end. */
export function tailRecord(fd: number, size: number): { last: ChatRecord | null; endsWithNewline: boolean } {
  if (size === 0) return { last: null, endsWithNewline: true };
  const lastByte = Buffer.alloc(1);
  fs.readSync(fd, lastByte, 0, 1, size - 1);
  const endsWithNewline = lastByte[0] === 0x0a;
  let pos = size;
  let buf = Buffer.alloc(0);
  while (pos > 0) {
    const start = Math.max(0, pos - TAIL_CHUNK);
    const chunk = Buffer.alloc(pos - start);
    fs.readSync(fd, chunk, 0, chunk.length, start);
    buf = Buffer.concat([chunk, buf]);
    pos = start;
    // Whole lines are those after the first newline in buf (or all, at the file's start);
    // the text after the last newline is a torn line.
    const from = pos === 0 ? 0 : buf.indexOf(0x0a) + 1;
    if (pos > 0 && from === 0) continue; // no newline yet: one long line, read more
    const lines = buf.subarray(from).toString('utf8').split('\n');
    lines.pop();
    for (let i = lines.length - 1; i >= 0; i--) {
      const r = parseLine(lines[i]!);
      if (r) return { last: r, endsWithNewline };
    }
    buf = buf.subarray(0, from); // keep the partial first line for the next chunk
  }
  return { last: null, endsWithNewline };
}

function parseLine(line: string): ChatRecord | null {
  if (!line.trim()) return null;
  try {
    return asChatRecord(JSON.parse(line));
  } catch {
    return null; // a torn line a writer left when it died: skipped, as readers must
  }
}

/** Every whole, valid record of a chat file; none when it does not exist. */
export function readChatFile(file: string): ChatRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a torn line
  const out: ChatRecord[] = [];
  for (const line of lines) {
    const r = parseLine(line);
    if (r) out.push(r);
  }
  return out;
}

/** The room's records with an id above `sinceId`. */
export function readChat(home: string, room: string, sinceId = 0): ChatRecord[] {
  return readChatFile(chatFile(home, room)).filter((r) => r.id > sinceId);
}

/**
 * Follows a chat file: each read() returns the whole records appended since
 * the last, parsing only the new bytes. A file replaced or cut shorter is
 * read again from its start, keeping only ids above the last one returned.
 */
export class ChatCursor {
  private offset = 0;
  private ino = -1;

  constructor(readonly file: string, public lastId = 0) {}

  read(): ChatRecord[] {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return []; // no chat yet: nothing appended
    }
    try {
      const st = fs.fstatSync(fd);
      if (st.ino !== this.ino || st.size < this.offset) {
        this.ino = st.ino;
        this.offset = 0;
      }
      if (st.size === this.offset) return [];
      const buf = Buffer.alloc(st.size - this.offset);
      const n = fs.readSync(fd, buf, 0, buf.length, this.offset);
      const end = buf.subarray(0, n).lastIndexOf(0x0a) + 1; // a line still being written waits for the next read
      this.offset += end;
      const out: ChatRecord[] = [];
      for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
        const r = parseLine(line);
        if (r && r.id > this.lastId) {
          out.push(r);
          this.lastId = r.id;
        }
      }
      return out;
    } finally {
      fs.closeSync(fd);
    }
  }
}

// ---- the guard's cache ---------------------------------------------------------

interface GuardCache extends LoopState {
  lastId: number;
}

/** The pause and count as records say (no maxHops implied: the post decides that). */
function replayGuard(records: readonly ChatRecord[]): LoopState {
  return records.reduce(stepLoopGuard, LOOP_START);
}

/** The cached guard if it was written at `lastId`; anything else (a crash, an edit) means replaying the chat. */
function readGuardCache(home: string, room: string, lastId: number): LoopState | null {
  try {
    const c = JSON.parse(fs.readFileSync(guardCacheFile(home, room), 'utf8')) as Partial<GuardCache>;
    if (c.lastId !== lastId || typeof c.hops !== 'number' || typeof c.paused !== 'boolean') return null;
    return { hops: c.hops, paused: c.paused };
  } catch {
    return null; // no cache or a bad one: the guard is replayed from the chat itself
  }
}

/**
 * Atomic, without fsync: after a crash a stale cache fails the lastId check
 * and is rebuilt. A failure is ignored: the post is already written, and
 * reporting it as failed would invite a duplicate.
 */
function writeGuardCache(home: string, room: string, cache: GuardCache): void {
  try {
    writeFileAtomic(guardCacheFile(home, room), JSON.stringify(cache) + '\n');
  } catch {
    // Ignored, as said above; writeFileAtomic left no temporary file.
  }
}
