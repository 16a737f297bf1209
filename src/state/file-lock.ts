/**
 * A lock file for short critical sections shared by processes (chat appends).
 *
 * Node has no flock(2) or fcntl locks, so the lock is a file that exists
 * while it is held:
 * - Taking it is link(2) of a private temporary file (already holding our
 *   pid, host, time and a random token) to the lock's name: atomic, fails
 *   with EEXIST while someone holds it, and never shows a reader an empty
 *   lock. Where hard links are refused, an O_EXCL create and a write do the
 *   same (an empty lock then counts as live until it is stale by age).
 * - A lock is known by its content (the token), not its inode: inode
 *   numbers are reused at once. The holder releases by unlinking only its
 *   own lock, and checks it still holds it (verify) right before it writes,
 *   so a holder stopped long enough to be judged stale writes nothing: its
 *   section runs again under a new lock.
 * - A lock is stale when its holder's pid is gone (same host) or it is older
 *   than staleMs (holds last milliseconds; age catches a reused pid and a
 *   holder on another machine). Breaking it must not delete a fresh lock
 *   that replaced it meanwhile, so it is done under a second lock
 *   (`<lock>.break`, O_EXCL, held for a few syscalls) that checks the lock
 *   still has the content judged stale before unlinking it. A breaker that
 *   died holding `.break` is cleared by age.
 * Waiting is async, with jittered sleeps growing from 1 to 16 ms on the caller's Scheduler; ages
 * and the deadline are read off its Clock (the real ones compare with the files' mtimes).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { Clock, Time } from '../core/clock.js';
import { EXIT, UserError } from './errors.js';
import { isPidAlive } from './host-store.js';

export interface FileLockOptions {
  /** Give up (UserError) after waiting this long. */
  timeoutMs?: number;
  /** A lock older than this is stale whoever holds it. */
  staleMs?: number;
  /** Names the thing locked in the error message. */
  what?: string;
}


export interface HeldLock {
  /** Throws when the lock is no longer ours (broken as stale); the section then runs again. */
  verify(): void;
}

/** A wait longer than this gives up: a hold lasts milliseconds, so a lock held this long is wedged. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** A lock this old is stale whoever holds it (a reused pid, a holder on another machine). */
const DEFAULT_STALE_MS = 10_000;
/** The longest sleep between tries: under contention the lock changes hands every millisecond. */
const MAX_SLEEP_MS = 16;
/** A `.break` lock this old was left by a breaker that died: a break takes a few syscalls. */
const BREAKER_STALE_MS = 5_000;

class LockLost extends Error {}

interface Owner { pid: number; host: string; at: number; token: string }

/** Runs `fn` (synchronous, so the hold is as short as the work) while holding the lock at `lockPath`. */
export async function withFileLock<T>(lockPath: string, fn: (lock: HeldLock) => T, time: Time, opts: FileLockOptions = {}): Promise<T> {
  const { clock, scheduler } = time;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const deadline = clock.now() + timeoutMs;
  let delay = 1;
  for (let attempt = 0; ; attempt++) {
    const mine = tryAcquire(lockPath, clock);
    if (mine !== null) {
      try {
        return fn({ verify: () => { if (contentOf(lockPath) !== mine) throw new LockLost(); } });
      } catch (err) {
        if (!(err instanceof LockLost)) throw err;
      } finally {
        if (contentOf(lockPath) === mine) fs.rmSync(lockPath, { force: true });
      }
      continue; // lost before anything was written: take it again
    }
    // Looking for a dead holder costs a dozen syscalls; under contention the lock changes hands every millisecond.
    if (attempt % 8 === 0) breakIfStale(lockPath, staleMs, clock);
    if (clock.now() > deadline) {
      const owner = readOwner(lockPath);
      const by = owner ? ` (held by pid ${owner.pid} on ${owner.host})` : '';
      throw new UserError(`${opts.what ?? lockPath} is busy: could not take its lock ${lockPath} in ${timeoutMs / 1000} s${by}`, EXIT.failure);
    }
    await new Promise<void>((r) => scheduler.setTimeout(r, Math.random() * delay));
    delay = Math.min(delay * 2, MAX_SLEEP_MS);
  }
}

/** The lock's content when we took it, or null when it is held. */
function tryAcquire(lockPath: string, clock: Clock): string | null {
  const token = crypto.randomBytes(8).toString('hex');
  const text = JSON.stringify({ pid: process.pid, host: os.hostname(), at: clock.now(), token } satisfies Owner);
  const tmp = `${lockPath}.${process.pid}.${token}`;
  try {
    // Inside the try: a disk too full for these few bytes must not leave the temporary file behind.
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.linkSync(tmp, lockPath);
    return text;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return null;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    return acquireExclusive(lockPath, text);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function acquireExclusive(lockPath: string, text: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw err;
  }
  try {
    fs.writeSync(fd, text);
  } catch (err) {
    // Made but not written (a full disk): an empty lock would hold everyone off until it is stale.
    fs.closeSync(fd);
    fs.rmSync(lockPath, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return text;
}

function contentOf(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null; // no lock there (released): nothing to match
  }
}

function parseOwner(text: string): Owner | null {
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? (o as Owner) : null;
  } catch {
    return null; // empty (an O_EXCL lock being written) or not ours: judged by age alone
  }
}

function readOwner(lockPath: string): Owner | null {
  const text = contentOf(lockPath);
  return text === null ? null : parseOwner(text);
}

/** The lock's content if it is stale, read through one descriptor so its content and age agree. */
function staleContent(lockPath: string, staleMs: number, clock: Clock): string | null {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'r');
  } catch {
    return null; // released meanwhile
  }
  try {
    const old = clock.now() - fs.fstatSync(fd).mtimeMs > staleMs;
    const text = fs.readFileSync(fd, 'utf8');
    if (old) return text;
    const owner = parseOwner(text);
    const dead = owner !== null && owner.host === os.hostname() && owner.pid !== process.pid && !isPidAlive(owner.pid);
    return dead ? text : null;
  } finally {
    fs.closeSync(fd);
  }
}

function breakIfStale(lockPath: string, staleMs: number, clock: Clock): void {
  const stale = staleContent(lockPath, staleMs, clock);
  if (stale !== null) removeIfStill(lockPath, stale, clock);
}

/**
 * Removes the lock file `lockPath` if it still holds `stale` (what its owner was judged dead by),
 * under a second file (`<lockPath>.break`, O_EXCL, held for a few syscalls), so two breakers
 * never remove a lock a third has taken meanwhile. Also used by revive's claim (revive-claim.ts).
 */
export function removeIfStill(lockPath: string, stale: string, clock: Clock): void {
  const breaker = `${lockPath}.break`;
  let fd: number;
  try {
    fd = fs.openSync(breaker, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Someone else is breaking it; one who died doing so is cleared by age.
    try {
      if (clock.now() - fs.statSync(breaker).mtimeMs > BREAKER_STALE_MS) fs.rmSync(breaker, { force: true });
    } catch {
      // gone meanwhile
    }
    return;
  }
  try {
    if (contentOf(lockPath) === stale) fs.rmSync(lockPath, { force: true });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(breaker, { force: true });
  }
}
