/**
 * A transcript read a piece at a time (docs/usage.md): a line-based one (JSON Lines that only
 * grow) from where the last read stopped, its last line kept until its newline comes; read again
 * from the start when it shrank or was replaced (another inode); a whole-file one (Gemini's saved
 * chat, rewritten each turn) again only when its size or mtime changed. A line the reader cannot
 * parse is skipped and counted; the first one is handed back once, to be reported.
 */
import fs from 'node:fs';
import type { UsageEntry, UsageReader } from '../../core/usage/usage-types.js';

/** Bytes read at a time: large enough that a 100 MiB transcript is few system calls, small enough to stay light. */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** A skipped line is quoted this far in its report. */
const SKIP_QUOTE_CHARS = 120;

export interface TailRead {
  /** The file could not be read: why (ENOENT: not there, or not yet). Nothing else is set. */
  error?: string;
  /** The file was read from its start again (shrunk, replaced, or a whole file that changed): drop what came before. */
  restarted: boolean;
  /** Messages read since the last read (all of them, after a restart). */
  entries: UsageEntry[];
  /** Lines skipped so far in this file (since the last restart). */
  skipped: number;
  /** The first line skipped in this file, quoted: given once, on the read that met it. */
  firstSkip?: string;
}

interface FileId {
  ino: number;
  dev: number;
  size: number;
  mtimeMs: number;
}

export class TranscriptTail {
  private seen: FileId | null = null;
  private offset = 0;
  /** The bytes of a last line with no newline yet. */
  private partial: Buffer = Buffer.alloc(0);
  private state: unknown;
  private skipped = 0;
  private skipReported = false;
  private lineNo = 0;

  constructor(
    readonly file: string,
    private readonly reader: UsageReader,
  ) {
    this.state = reader.mode === 'lines' ? reader.initial() : null;
  }

  /** Reads what is new. Never throws for the file's sake: a read that failed says why in `error`. */
  read(): TailRead {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch (err) {
      return { error: (err as NodeJS.ErrnoException).code ?? (err as Error).message, restarted: false, entries: [], skipped: this.skipped };
    }
    try {
      const st = fs.fstatSync(fd);
      const id: FileId = { ino: st.ino, dev: st.dev, size: st.size, mtimeMs: st.mtimeMs };
      return this.reader.mode === 'lines' ? this.readLines(fd, id) : this.readWhole(fd, id, this.reader.file);
    } catch (err) {
      return { error: (err as NodeJS.ErrnoException).code ?? (err as Error).message, restarted: false, entries: [], skipped: this.skipped };
    } finally {
      fs.closeSync(fd);
    }
  }

  private restart(): void {
    this.offset = 0;
    this.partial = Buffer.alloc(0);
    this.skipped = 0;
    this.skipReported = false;
    this.lineNo = 0;
    if (this.reader.mode === 'lines') this.state = this.reader.initial();
  }

  private readLines(fd: number, id: FileId): TailRead {
    const reader = this.reader as Extract<UsageReader, { mode: 'lines' }>;
    const before = this.seen;
    const restarted = before !== null && (before.ino !== id.ino || before.dev !== id.dev || id.size < this.offset);
    if (restarted) this.restart();
    this.seen = id;
    const entries: UsageEntry[] = [];
    let firstSkip: string | undefined;
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, id.size - this.offset)));
    while (this.offset < id.size) {
      const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, id.size - this.offset), this.offset);
      if (n === 0) break;
      this.offset += n;
      // A newline byte is never inside a UTF-8 character: cut at the last one, keep the rest for later.
      const got = chunk.subarray(0, n);
      const last = got.lastIndexOf(0x0a);
      if (last < 0) {
        this.partial = Buffer.concat([this.partial, got]);
        continue;
      }
      const text = (this.partial.length > 0 ? Buffer.concat([this.partial, got.subarray(0, last)]) : got.subarray(0, last)).toString('utf8');
      this.partial = Buffer.from(got.subarray(last + 1));
      let from = 0;
      for (;;) {
        const nl = text.indexOf('\n', from);
        const line = nl < 0 ? text.slice(from) : text.slice(from, nl);
        this.lineNo += 1;
        const r = line.length === 0 ? [] : reader.line(line, this.state);
        if (r === 'skip') {
          this.skipped += 1;
          if (!this.skipReported) {
            this.skipReported = true;
            firstSkip = `line ${this.lineNo}: ${line.slice(0, SKIP_QUOTE_CHARS)}`;
          }
        } else for (const e of r) entries.push(e);
        if (nl < 0) break;
        from = nl + 1;
      }
    }
    return { restarted, entries, skipped: this.skipped, firstSkip };
  }

  private readWhole(fd: number, id: FileId, parse: (text: string) => UsageEntry[] | 'skip'): TailRead {
    const before = this.seen;
    if (before && before.ino === id.ino && before.dev === id.dev && before.size === id.size && before.mtimeMs === id.mtimeMs) {
      return { restarted: false, entries: [], skipped: this.skipped };
    }
    const restarted = before !== null;
    this.seen = id;
    const buf = Buffer.alloc(id.size);
    let at = 0;
    while (at < id.size) {
      const n = fs.readSync(fd, buf, at, id.size - at, at);
      if (n === 0) break;
      at += n;
    }
    const r = parse(buf.subarray(0, at).toString('utf8'));
    // A whole file that cannot be parsed (caught mid-write, say) counts as one skipped line until it changes.
    if (r === 'skip') {
      // Not a restart: what was read before stands until the file parses again.
      const first = !this.skipReported;
      this.skipped = 1;
      this.skipReported = true;
      return { restarted: false, entries: [], skipped: 1, firstSkip: first ? `the whole file (${id.size} bytes) could not be parsed` : undefined };
    }
    this.skipped = 0;
    this.skipReported = false;
    return { restarted, entries: r, skipped: 0 };
  }
}
