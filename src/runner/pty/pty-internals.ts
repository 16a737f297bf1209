/**
 * What the runner uses of node-pty 1.1.0's UnixTerminal (pinned exactly in package.json) beyond
 * its documented API, in this one file: the master fd and the socket that reads it (our direct
 * writes, the echo relay's lease), and the slave's path (held open against the exit-time output
 * loss). What is then done to that socket, node's own insides, is node-internals.ts's: its
 * decoder undone (reads as bytes), its reads stopped for the lease. Each is checked at run time
 * and used only when it is as expected.
 */
import fs from 'node:fs';
import { beforeSocketDestroy, holdSocketReads, socketDataFeed, undoSocketDecoding } from '../node-internals.js';

/** node-pty's UnixTerminal, as far as src/runner/pty/pty-host.ts reads it. */
export interface PtyInternals {
  fd?: unknown;
  /** The tty.ReadStream (a net.Socket) node-pty reads the master with. */
  _socket?: { destroyed?: unknown };
  ptsName?: unknown;
}

/** O_NONBLOCK in /proc/self/fdinfo's octal flags (Linux). */
const O_NONBLOCK = 0o4000;
/** The most drainMaster reads: far more than a PTY holds (see there). */
const DRAIN_MAX_BYTES = 1024 * 1024;

export const internalsOf = (p: unknown) => p as PtyInternals;

/**
 * Only a non-blocking master fd may be written from the event loop (a blocking
 * write to a full PTY would hang the runner), and only when node-pty exposes
 * it the way 1.1.0 does; otherwise node-pty keeps writing.
 */
export function canWriteDirectly(p: PtyInternals): boolean {
  if (typeof p.fd !== 'number' || typeof p._socket?.destroyed !== 'boolean') return false;
  try {
    const info = fs.readFileSync(`/proc/self/fdinfo/${p.fd}`, 'utf8');
    const flags = /^flags:\s*([0-7]+)/m.exec(info);
    return flags !== null && (parseInt(flags[1]!, 8) & O_NONBLOCK) !== 0;
  } catch {
    return false; // no /proc (not Linux): node-pty writes
  }
}

/** The master fd while node-pty still has it open (it closes it when the child side goes away). */
export function openMasterFd(p: PtyInternals): number | null {
  return p._socket?.destroyed === false && typeof p.fd === 'number' ? p.fd : null;
}

/** The slave's path, or null. */
export function slavePath(p: PtyInternals): string | null {
  return typeof p.ptsName === 'string' && p.ptsName ? p.ptsName : null;
}

/**
 * The output as bytes. Spawning with encoding 'utf8' is what sets IUTF8 on the terminal (erase in
 * canonical mode takes a whole character, as in tmux's panes), and it also makes node-pty's socket
 * decode every read. That decoding is undone before any read (node-internals.ts
 * undoSocketDecoding): reads come as Buffers, cut and decoded by utf8-chunker.ts. Where it cannot
 * be, reads stay strings and are taken as text (false).
 */
export function undoDecoding(p: PtyInternals): boolean {
  return undoSocketDecoding(p._socket);
}

/**
 * Stops node-pty's reads of the master while somebody else reads it (the echo relay's thread),
 * until the returned undo starts them again (node-internals.ts holdSocketReads). Null when
 * node's socket is not as expected: then nothing was changed.
 */
export function holdReads(p: PtyInternals): (() => void) | null {
  return holdSocketReads(p._socket);
}

/**
 * Runs `first` when node-pty destroys its socket: DESTROY_SOCKET_TIMEOUT_MS (200 ms) after the
 * child's exit when the master has not closed by then, which it never does while the slave is
 * held; what the PTY still held was dropped with it. False when the socket is not as expected.
 */
export function beforeDestroy(p: PtyInternals, first: () => void): boolean {
  return beforeSocketDestroy(p._socket, first);
}

/**
 * Everything still to be read, through the socket's own 'data' (so in order, to the same
 * listeners): what its buffer holds (a paused socket's), then what the kernel holds, read from the
 * master until it has no more. Only for a non-blocking master (canWriteDirectly): a blocking read
 * of an empty PTY whose slave we hold would never return.
 */
export function drainMaster(p: PtyInternals): void {
  const fd = openMasterFd(p);
  if (fd === null || !canWriteDirectly(p)) return;
  const feed = socketDataFeed(p._socket);
  if (!feed) return;
  const buf = Buffer.alloc(64 * 1024);
  // A PTY holds far less than this: the bound only stops a program still printing (a socket
  // destroyed before its exit) from keeping us here.
  for (let total = 0; total < DRAIN_MAX_BYTES; ) {
    let n = 0;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch {
      return; // EAGAIN: nothing more; EIO: the PTY is gone
    }
    if (n <= 0) return;
    total += n;
    feed(Buffer.from(buf.subarray(0, n)));
  }
}
