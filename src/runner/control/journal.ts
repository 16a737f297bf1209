import fs from 'node:fs';
import {
  compactJournal,
  needsCompaction,
  parseJournalLine,
  type JournalRecord,
} from '../../core/protocol/command-journal.js';

/**
 * The session's `control-journal.jsonl` (0600): durable commands are appended
 * and fsynced here before they are accepted, so a runner that dies mid-command
 * leaves a record of what it may have typed. Writes are synchronous on
 * purpose: they are rare (prompts, never keystrokes) and their order must be
 * the order of the acks. A failed write is an error value, never a throw: the
 * runner refuses the command and keeps serving.
 */
export class CommandJournal {
  private fd: number | null = null;
  private count = 0;
  private records: JournalRecord[] = [];

  constructor(readonly file: string) {}

  /** Reads what earlier runner instances wrote; a missing or unreadable file is an empty journal. */
  load(): JournalRecord[] {
    let text = '';
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return []; // no journal yet (a first start): nothing was accepted before
    }
    this.records = text.split('\n').map(parseJournalLine).filter((r): r is JournalRecord => r !== null);
    this.count = this.records.length;
    return this.records;
  }

  /** Appends and syncs one record. */
  append(record: JournalRecord): { ok: true } | { ok: false; message: string; code: string } {
    try {
      this.fd ??= fs.openSync(this.file, 'a', 0o600);
      fs.writeSync(this.fd, JSON.stringify(record) + '\n');
      fs.fsyncSync(this.fd);
    } catch (err) {
      this.closeFd(); // reopened on the next try: the disk may have room again
      // A line cut short by the full disk is skipped by the reader (parseJournalLine), and the next append starts after it.
      return { ok: false, message: (err as Error).message, code: (err as NodeJS.ErrnoException).code ?? 'EIO' };
    }
    this.records.push(record);
    if (needsCompaction(++this.count)) this.compact();
    return { ok: true };
  }

  /** Rewrites the file with what the GC policy keeps, atomically (a crash leaves the old or the new file). */
  private compact(): void {
    const kept = compactJournal(this.records);
    const tmp = `${this.file}.tmp`;
    try {
      fs.writeFileSync(tmp, kept.map((r) => JSON.stringify(r) + '\n').join(''), { mode: 0o600 });
      const fd = fs.openSync(tmp, 'r');
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(tmp, this.file);
    } catch {
      // Keep appending to the long file; compaction is tried again on the next append. No temporary file stays.
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // a read-only mount: no temporary file could be made there either
      }
      return;
    }
    this.closeFd();
    this.records = kept;
    this.count = kept.length;
  }

  private closeFd(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already unusable
    }
    this.fd = null;
  }

  /** Lets go of the file (it is opened again by the next append, if any). */
  dispose(): void {
    this.closeFd();
  }
}
