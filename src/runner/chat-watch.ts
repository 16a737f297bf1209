import fs from 'node:fs';
import path from 'node:path';
import { asChatRecord, type ChatRecord } from '../core/chat/chat.js';

/**
 * Follows a room's chat.jsonl from a byte offset: whole lines only (a line
 * still being written is read once it ends), torn or foreign lines skipped.
 * fs.watch on the room's folder gives promptness (the file may not exist
 * yet, and appends by other processes are what we wait for); a slow poll
 * covers filesystems where watch events get lost.
 */
export const CHAT_POLL_MS = 1000;

export class ChatWatch {
  private offset = 0;
  private partial = '';
  private watcher: fs.FSWatcher | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly file: string,
    private readonly onRecords: (records: ChatRecord[]) => void,
    private readonly onError: (message: string) => void,
  ) {}

  /** Reads what is there now (returned, not reported) and follows from its end. */
  start(): ChatRecord[] {
    const existing = this.read();
    try {
      this.watcher = fs.watch(path.dirname(this.file), () => this.check());
      this.watcher.on('error', () => undefined); // the poll still runs
    } catch {
      // no folder yet or no inotify: the poll does it
    }
    this.poll = setInterval(() => this.check(), CHAT_POLL_MS);
    this.poll.unref();
    return existing;
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    if (this.poll) clearInterval(this.poll);
    this.watcher = null;
    this.poll = null;
  }

  private check(): void {
    if (this.stopped) return;
    const records = this.read();
    if (records.length) this.onRecords(records);
  }

  private read(): ChatRecord[] {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return []; // no chat yet
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
          continue;
        }
        const r = asChatRecord(value);
        if (r) out.push(r);
      }
      return out;
    } catch (err) {
      this.onError(`reading ${this.file}: ${(err as Error).message}`);
      return [];
    } finally {
      fs.closeSync(fd);
    }
  }
}
