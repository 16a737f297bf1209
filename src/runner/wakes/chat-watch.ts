import fs from 'node:fs';
import path from 'node:path';
import { asChatRecord, type ChatRecord } from '../../core/chat/chat.js';
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, toDisposable, type Disposable } from '../../core/lifetime.js';

/**
 * Follows a room's chat.jsonl from a byte offset: whole lines only (a line
 * still being written is read once it ends), torn or foreign lines skipped.
 * fs.watch on the room's folder gives promptness (the file may not exist
 * yet, and appends by other processes are what we wait for); a slow poll
 * covers filesystems where watch events get lost.
 */
export const CHAT_POLL_MS = 1000;

export interface ChatWatchDeps {
  file: string;
  onRecords: (records: ChatRecord[]) => void;
  onError: (message: string) => void;
  scheduler: Scheduler;
}

export class ChatWatch implements Disposable {
  private offset = 0;
  private partial = '';
  private readonly store = new DisposableStore();

  constructor(private readonly d: ChatWatchDeps) {}

  private get file(): string {
    return this.d.file;
  }

  /** Reads what is there now (returned, not reported) and follows from its end. */
  start(): ChatRecord[] {
    const existing = this.read();
    try {
      const watcher = fs.watch(path.dirname(this.file), () => this.check());
      watcher.on('error', (err) => this.d.onError(`watching ${path.dirname(this.file)}: ${err.message}; the poll goes on`));
      this.store.add(toDisposable(() => watcher.close()));
    } catch {
      // No folder yet or no inotify: the poll below finds every line all the same, only later.
    }
    this.store.add(this.d.scheduler.setInterval(() => this.check(), CHAT_POLL_MS));
    return existing;
  }

  /** Stops following: no watcher, no poll. */
  dispose(): void {
    this.store.dispose();
  }

  private check(): void {
    if (this.store.isDisposed) return;
    const records = this.read();
    if (records.length) this.d.onRecords(records);
  }

  private read(): ChatRecord[] {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return []; // no chat yet: the next check looks again
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size < this.offset) this.offset = 0; // replaced: start over
      if (size === this.offset) return [];
      const buf = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      const text = this.partial + buf.toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      const out: ChatRecord[] = [];
      for (const line of lines) {
        if (!line.trim()) continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          continue; // a torn or foreign line: not a record, nothing to deliver
        }
        const r = asChatRecord(value);
        if (r) out.push(r);
      }
      return out;
    } catch (err) {
      this.d.onError(`reading ${this.file}: ${(err as Error).message}`);
      return [];
    } finally {
      fs.closeSync(fd);
    }
  }
}
