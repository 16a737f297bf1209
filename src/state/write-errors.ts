/**
 * Writing the home's files when the disk may say no (docs/cli.md, "When a file cannot be
 * written"): a full disk, a used-up quota, a read-only mount or a permission (ENOSPC, EDQUOT,
 * EROFS, EACCES, EPERM) becomes one UserError that names what could not be written and what to do
 * (exit 15), never a stack; an atomic write that fails leaves no temporary file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cannotWriteMessage, isWriteFailureCode } from '../core/write-failure.js';
import { EXIT, UserError } from './errors.js';

/**
 * The code of `err` when it is a write failure of a file (ENOSPC...), else null. fs.watch's ENOSPC
 * is the kernel's limit on watches, not a full disk: not one of these.
 */
export function writeFailureCode(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException | null;
  if (!e || typeof e !== 'object' || e.syscall === 'watch') return null;
  return isWriteFailureCode(e.code) ? e.code : null;
}

/** The UserError for a write failure of `what` (`the session's record`) at `file`. */
export function cannotWriteError(what: string, file: string, code: string, again?: string): UserError {
  return new UserError(cannotWriteMessage(what, file, code, again), EXIT.cannotWrite);
}

/** Runs `fn`; a write failure in it becomes cannotWriteError(what, file), anything else goes on as it was. */
export function writing<T>(what: string, file: string, fn: () => T, again?: string): T {
  try {
    return fn();
  } catch (err) {
    const code = writeFailureCode(err);
    if (code !== null) throw cannotWriteError(what, file, code, again);
    throw err;
  }
}

/**
 * Writes `file` so a reader sees the old content or the new, never half: a temporary file beside
 * it (`<file>.<pid>.tmp`), fsynced when `durable`, renamed over it. When anything fails the
 * temporary file is removed before the error goes on: a full disk leaves nothing behind.
 */
export function writeFileAtomic(file: string, data: string, durable = false): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      writeAll(fd, Buffer.from(data, 'utf8'));
      if (durable) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // A read-only mount refuses even this; there is no temporary file on one anyway.
    }
    throw err;
  }
}

/** Every byte of `buf`: a disk that fills during the write gives a short count first, then ENOSPC. */
function writeAll(fd: number, buf: Buffer): void {
  for (let off = 0; off < buf.length; ) off += fs.writeSync(fd, buf, off, buf.length - off);
}

/**
 * fs.mkdirSync(dir, { recursive: true }), saying why it failed: Node's recursive mkdir reports a
 * read-only mount (and other refusals of the first folder it must make) as ENOENT, which would
 * read as a bug. The first missing folder is made once more alone, for the real error.
 */
export function makeDirs(dir: string, mode = 0o700): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    let first = path.resolve(dir);
    while (!fs.existsSync(path.dirname(first)) && path.dirname(first) !== first) first = path.dirname(first);
    fs.mkdirSync(first, { mode }); // throws EROFS, ENOSPC, EACCES...
    fs.mkdirSync(dir, { recursive: true, mode }); // made meanwhile: the rest
  }
}
