/** The board's chat data (the real ChatFeed of src/client/feed/board-api.ts): the rooms' messages and paused banners. */
import fs from 'node:fs';
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, toDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import { checkRoomName, loopGuard, type ChatRecord } from '../../core/chat/chat.js';
import { ChatCursor } from '../../state/chat-store.js';
import { chatFile } from '../../state/paths.js';
import { ensureRoomDir, roomMaxHops } from '../../state/rooms.js';
import type { ChatFeed, RoomChat } from './board-api.js';

export interface ChatFeedOptions {
  /** The read, notify and poll timers (the board's start hands an unref'd one: a poll must not hold a process). */
  scheduler: Scheduler;
  /** onChange fires at most this often (ms). */
  notifyMs?: number;
  /** Events in a room's folder come in bursts (a post writes the chat, the lock, the guard cache): read once, this long after the first (ms). */
  readMs?: number;
  /** fs.watch misses events on some filesystems: every room is also looked at this often (ms; 0: never). */
  pollMs?: number;
}

/** One room followed: its records so far, and its loop guard worked out from them when they change. */
class FollowedRoom implements Disposable {
  private records: readonly ChatRecord[] = [];
  private readonly cursor: ChatCursor;
  private readonly watcher = new MutableDisposable();
  private maxHops = -1;
  view: RoomChat;

  constructor(private readonly home: string, readonly room: string, private readonly onEvent: () => void) {
    this.cursor = new ChatCursor(chatFile(home, room));
    this.view = { room, records: [], paused: false };
  }

  /** Watches the room's folder (the chat file may not exist yet); if that fails, the poll alone follows the room. */
  watch(): void {
    if (this.watcher.value) return;
    try {
      const w = fs.watch(ensureRoomDir(this.home, this.room), () => this.onEvent());
      const held = toDisposable(() => w.close());
      w.on('error', () => {
        if (this.watcher.value === held) this.watcher.clear(); // the next poll tries again
        else w.close();
      });
      this.watcher.value = held;
    } catch {
      this.watcher.clear(); // the poll alone follows the room, and the next poll tries to watch again
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

  dispose(): void {
    this.watcher.dispose();
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
  private readonly changes = new Emitter<void>();
  private readonly dirty = new Set<string>();
  private readonly o: Required<Omit<ChatFeedOptions, 'scheduler'>>;
  private readonly scheduler: Scheduler;
  private watched: readonly string[] = [];
  private open: string | null = null;
  private paused: readonly string[] = [];
  private readonly readTimer = new MutableDisposable();
  private readonly notifyTimer = new MutableDisposable();
  private readonly pollTimer = new MutableDisposable();
  private readonly store = new DisposableStore();
  private disposed = false;

  constructor(readonly home: string, options: ChatFeedOptions) {
    this.o = { notifyMs: options.notifyMs ?? 50, readMs: options.readMs ?? 20, pollMs: options.pollMs ?? 2000 };
    this.scheduler = options.scheduler;
    for (const d of [this.changes, this.readTimer, this.notifyTimer, this.pollTimer]) this.store.add(d);
    this.store.add(
      toDisposable(() => {
        for (const r of this.rooms.values()) r.dispose();
        this.rooms.clear();
      }),
    );
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

  /** A room's messages or the paused rooms changed (at most once per notifyMs). */
  readonly onChange: Event<void> = (fn) => this.changes.event(fn);

  dispose(): void {
    this.disposed = true;
    this.store.dispose();
  }

  /** Follows the rooms wanted (watched and open), reading each new one at once; lets the others go. */
  private sync(): void {
    if (this.disposed) return;
    const wanted = new Set(this.watched);
    if (this.open) wanted.add(this.open);
    let changed = false;
    for (const [name, r] of this.rooms) {
      if (wanted.has(name)) continue;
      r.dispose();
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
    if (this.readTimer.value) return;
    this.readTimer.value = this.scheduler.setTimeout(() => {
      this.readTimer.clear();
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
      this.pollTimer.clear();
      return;
    }
    if (this.pollTimer.value) return;
    this.pollTimer.value = this.scheduler.setInterval(() => {
      for (const r of this.rooms.values()) {
        r.watch(); // a watch that failed or broke is tried again
        this.dirty.add(r.room);
      }
      this.readDirty();
    }, this.o.pollMs);
  }

  /** The watched rooms the loop guard paused; true when that changed. */
  private updatePaused(): boolean {
    const next = this.watched.filter((name) => this.rooms.get(name)?.view.paused);
    if (next.join('\n') === this.paused.join('\n')) return false;
    this.paused = next;
    return true;
  }

  private notify(): void {
    if (this.notifyTimer.value || this.disposed) return;
    this.notifyTimer.value = this.scheduler.setTimeout(() => {
      this.notifyTimer.clear();
      this.changes.fire();
    }, this.o.notifyMs);
  }
}
