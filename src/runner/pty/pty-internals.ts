/**
 * What the runner uses of node-pty 1.1.0's UnixTerminal (pinned exactly in package.json) beyond
 * its documented API, in this one file: the master fd and the socket that reads it (our direct
 * writes, the echo relay's lease), and the slave's path (held open against the exit-time output
 * loss). What is then done to that socket, node's own insides, is node-internals.ts's: its
 * decoder undone (reads as bytes), its reads stopped for the lease. Each is checked at run time
 * and used only when it is as expected.
 */
import fs from 'node:fs';
import { holdSocketReads, undoSocketDecoding } from '../node-internals.js';

/** node-pty's UnixTerminal, as far as src/runner/pty/pty-host.ts reads it. */
export interface PtyInternals {
  fd?: unknown;
  /** The tty.ReadStream (a net.Socket) node-pty reads the master with. */
  _socket?: { destroyed?: unknown };
  ptsName?: unknown;
}

/** O_NONBLOCK in /proc/self/fdinfo's octal flags (Linux). */
const O_NONBLOCK = 0o4000;

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
