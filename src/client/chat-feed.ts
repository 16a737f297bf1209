/** The chat of the rooms on the board, followed on disk as it grows, with each room's loop guard. */
import fs from 'node:fs';
import { checkRoomName, loopGuard, type ChatRecord } from '../core/chat/chat.js';
import { ChatCursor } from '../state/chat-store.js';
import { chatFile } from '../state/paths.js';
import { ensureRoomDir, roomMaxHops } from '../state/rooms.js';
import type { ChatFeed, RoomChat } from '../ui/board-api.js';

export interface ChatFeedOptions {
  /** Subscribers hear of changes at most this often (ms). */
  notifyMs?: number;
  /** Events in a room's folder come in bursts (a post writes the chat, the lock, the guard cache): read once, this long after the first (ms). */
  readMs?: number;
  /** fs.watch misses events on some filesystems: every room is also looked at this often (ms; 0: never). */
  pollMs?: number;
}

/** One room followed: its records so far, and its loop guard worked out from them when they change. */
class FollowedRoom {
  private records: readonly ChatRecord[] = [];
  private readonly cursor: ChatCursor;
  private watcher: fs.FSWatcher | null = null;
  private maxHops = -1;
  view: RoomChat;

  constructor(private readonly home: string, readonly room: string, private readonly onEvent: () => void) {
    this.cursor = new ChatCursor(chatFile(home, room));
    this.view = { room, records: [], paused: false };
  }

  /** Watches the room's folder (the chat file may not exist yet); if that fails, the poll alone follows the room. */
  watch(): void {
    if (this.watcher) return;
    try {
      const w = fs.watch(ensureRoomDir(this.home, this.room), () => this.onEvent());
      w.on('error', () => {
        w.close();
        if (this.watcher === w) this.watcher = null; // the next poll tries again
      });
      this.watcher = w;
    } catch {
      this.watcher = null;
    }
  }

  /** Reads what was appended, and the room's maxHops; true when what the board shows changed. */
  refresh(): boolean {
    let fresh: ChatRecord[];
    let maxHops: number;
    try {
      fresh = this.cursor.read();
      maxHops = roomMaxHops(this.home, this.room);
    } catch {
      return false; // unreadable for now: the next event or poll tries again
    }
    if (fresh.length === 0 && maxHops === this.maxHops) return false;
    this.maxHops = maxHops;
    if (fresh.length > 0) this.records = this.records.concat(fresh);
    const { paused } = loopGuard(this.records, maxHops);
    if (fresh.length === 0 && paused === this.view.paused) return false;
    this.view = { room: this.room, records: this.records, paused };
    return true;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }
}

/**
 * The chat of the rooms on the board: each room followed through fs.watch on
 * its folder, with a slow poll behind it; a room's chat file is read from
 * where the last read stopped, and its loop guard worked out then, so a
 * render costs nothing. Rooms no longer wanted are let go.
 */
export class LiveChatFeed implements ChatFeed {
  private readonly rooms = new Map<string, FollowedRoom>();
  private readonly subscribers = new Set<() => void>();
  private readonly dirty = new Set<string>();
  private readonly o: Required<ChatFeedOptions>;
  private watched: readonly string[] = [];
  private open: string | null = null;
  private paused: readonly string[] = [];
  private readTimer: NodeJS.Timeout | null = null;
  private notifyTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(readonly home: string, options: ChatFeedOptions = {}) {
    this.o = { notifyMs: options.notifyMs ?? 50, readMs: options.readMs ?? 20, pollMs: options.pollMs ?? 2000 };
  }

  get pausedRooms(): readonly string[] {
    return this.paused;
  }

  get chat(): RoomChat | null {
    return this.open ? (this.rooms.get(this.open)?.view ?? null) : null;
  }

  watchRooms(rooms: readonly string[]): void {
    this.watched = [...new Set(rooms)].filter((r) => checkRoomName(r) === null).sort();
    this.sync();
  }

  openRoom(room: string | null): void {
    const next = room !== null && checkRoomName(room) === null ? room : null;
    if (next === this.open) return;
    this.open = next;
    this.sync();
    this.notify(); // `chat` is another room's now
  }

  subscribe(fn: () => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  dispose(): void {
    this.disposed = true;
    for (const r of this.rooms.values()) r.close();
    this.rooms.clear();
    this.subscribers.clear();
    for (const t of [this.readTimer, this.notifyTimer]) if (t) clearTimeout(t);
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.readTimer = this.notifyTimer = this.pollTimer = null;
  }

  /** Follows the rooms wanted (watched and open), reading each new one at once; lets the others go. */
  private sync(): void {
    if (this.disposed) return;
    const wanted = new Set(this.watched);
    if (this.open) wanted.add(this.open);
    let changed = false;
    for (const [name, r] of this.rooms) {
      if (wanted.has(name)) continue;
      r.close();
      this.rooms.delete(name);
      changed = true;
    }
    for (const name of wanted) {
      if (this.rooms.has(name)) continue;
      const r = new FollowedRoom(this.home, name, () => this.markDirty(name));
      r.watch();
      r.refresh();
      this.rooms.set(name, r);
      changed = true;
    }
    this.armPoll();
    if (this.updatePaused() || changed) this.notify();
  }

  private markDirty(name: string): void {
    if (this.disposed) return;
    this.dirty.add(name);
    this.readTimer ??= setTimeout(() => {
      this.readTimer = null;
      this.readDirty();
    }, this.o.readMs);
  }

  private readDirty(): void {
    let changed = false;
    for (const name of this.dirty) changed = (this.rooms.get(name)?.refresh() ?? false) || changed;
    this.dirty.clear();
    if (changed) {
      this.updatePaused();
      this.notify();
    }
  }

  private armPoll(): void {
    if (this.o.pollMs <= 0 || this.rooms.size === 0) {
      if (this.pollTimer) clearInterval(this.pollTimer);
      this.pollTimer = null;
      return;
    }
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => {
      for (const r of this.rooms.values()) {
        r.watch(); // a watch that failed or broke is tried again
        this.dirty.add(r.room);
      }
      this.readDirty();
    }, this.o.pollMs);
    this.pollTimer.unref();
  }

  /** The watched rooms the loop guard paused; true when that changed. */
  private updatePaused(): boolean {
    const next = this.watched.filter((name) => this.rooms.get(name)?.view.paused);
    if (next.join('\n') === this.paused.join('\n')) return false;
    this.paused = next;
    return true;
  }

  private notify(): void {
    if (this.notifyTimer || this.disposed) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      for (const fn of [...this.subscribers]) fn();
    }, this.o.notifyMs);
  }
}
