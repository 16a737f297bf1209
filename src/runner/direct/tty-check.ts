/**
 * The checks before the runner opens a client's terminal to write its output there, or to read
 * its keys from it (docs/protocol.md, "Direct output", "Direct input"): the client is a process
 * of this machine and this boot that holds the terminal it names (on the descriptor it writes,
 * or reads, it on), and the terminal is a tty device of ours; then it is opened so that it
 * cannot become our controlling terminal, cannot block us and cannot be a symlink, and checked
 * again once open. Linux only; on any doubt the answer is no, with the reason.
 */
import fs from 'node:fs';
import type net from 'node:net';
import tty from 'node:tty';
import type { DirectRequest } from '../../core/protocol/client-messages.js';
import { processStartTime } from '../../state/proc-identity.js';
import { streamFd } from '../node-internals.js';

/** The only paths a terminal may have: a pseudo-terminal, or a console / serial line. */
const TTY_PATH = /^\/dev\/(?:pts\/[0-9]{1,6}|tty[A-Za-z0-9]{1,8})$/;

export type Opened = { ok: true; fd: number; stat: fs.Stats } | { ok: false; reason: string };

/** Open the terminal to write the output to it, or to read the keys from it (the client's `input.fd` is the one checked). */
export type Access = 'write' | 'read';

const no = (reason: string): Opened => ({ ok: false, reason });

/** What the checks compare against: this process's uid and boot (tests may not change them). */
export interface Self {
  uid: number;
  bootId: string | null;
}

/** Checks the request and opens the terminal write-only, or read-only; the fd is the caller's to close. */
export function openClientTerminal(req: DirectRequest, self: Self, access: Access = 'write'): Opened {
  const clientFd = access === 'read' ? req.input?.fd : req.fd;
  if (clientFd === undefined) return no('the client did not ask for its keys to be read');
  if (process.platform !== 'linux') return no('direct output is only done on Linux');
  if (!TTY_PATH.test(req.path)) return no(`${req.path} is not a terminal path (/dev/pts/N or /dev/ttyX)`);
  // The same machine and boot: over ssh (--host) a /dev/pts/N of the same user here is someone else's terminal.
  if (self.bootId === null || req.bootId !== self.bootId) return no('the client runs on another machine (or boot)');
  // The same process: its pid has not been reused since it asked, and it has the terminal open where it says.
  if (processStartTime(req.pid) !== req.startTime) return no(`process ${req.pid} is not the client (its start time differs, or it is gone)`);
  let held: string;
  try {
    held = fs.readlinkSync(`/proc/${req.pid}/fd/${clientFd}`);
  } catch (err) {
    return no(`cannot see the client's fd ${clientFd}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (held !== req.path) return no(`the client's fd ${clientFd} is not ${req.path}`);
  let before: fs.Stats;
  try {
    before = fs.lstatSync(req.path);
  } catch (err) {
    return no(`cannot stat ${req.path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (before.isSymbolicLink() || !before.isCharacterDevice()) return no(`${req.path} is not a character device`);
  if (before.uid !== self.uid) return no(`${req.path} belongs to uid ${before.uid}, not to us`);
  let fd: number;
  try {
    const { O_RDONLY, O_WRONLY, O_NOCTTY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
    fd = fs.openSync(req.path, (access === 'read' ? O_RDONLY : O_WRONLY) | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
  } catch (err) {
    return no(`cannot open ${req.path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const after = checkOpened(fd, before, req.path);
  if (after) {
    fs.closeSync(fd);
    return no(after);
  }
  return { ok: true, fd, stat: before };
}

/**
 * A tty stream made on an fd we opened: libuv's uv_tty_init reopens a pseudo-terminal's slave by
 * its name (ttyname), dup2s the new file onto our fd, and then reads and writes a second fd of
 * its own, leaving ours open for good (an fd on the user's terminal held by the runner after it
 * let go). Ours is closed here, and the one libuv uses is checked again, since the check after
 * our own open no longer covers it. What is wrong, or null; on a wrong one the caller destroys the stream.
 */
export function adoptTtyStream(stream: net.Socket, fd: number, before: fs.Stats, path: string): string | null {
  const own = streamFd(stream);
  if (own === null) return `cannot see the fd libuv uses for ${path}`;
  if (own !== fd) fs.closeSync(fd);
  return checkOpened(own, before, path);
}

/** What is wrong with what `fd` is (not the file that was checked, not a tty), or null. */
function checkOpened(fd: number, before: fs.Stats, path: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.fstatSync(fd);
  } catch (err) {
    return `cannot fstat ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  if (st.dev !== before.dev || st.rdev !== before.rdev || st.ino !== before.ino) return `${path} changed while it was opened`;
  if (!tty.isatty(fd)) return `${path} is not a tty`;
  return null;
}
