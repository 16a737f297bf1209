/**
 * What the CLI prints, and commander's output: straight to fd 1 and 2 when they are not
 * terminals. The agents run `hook`, `send` and `chat post` on every turn with their output in a
 * pipe or a file, and node builds process.stdout on first use: for a pipe that loads `net` and
 * node's streams, for a file the streams alone (2.5 and 1.5 ms of a run here, where node's own
 * start is about 20 ms and ours beyond it about 7). A terminal keeps node's own
 * stream: its width, its colours and its non-blocking writes are what commander and a person
 * expect, and a person at a terminal does not run these every turn.
 */
import { fstatSync, writeSync } from 'node:fs';

type Fd = 1 | 2;

/** Per fd: a terminal (or a device we do not know: node's stream decides), or a pipe, socket or file we write ourselves. */
const terminal = new Map<Fd, boolean>();
/** The reader went away (EPIPE): what is left to print has nobody to read it. */
const gone = new Set<Fd>();
/** A write met a full non-blocking pipe (EAGAIN): node's stream holds the rest, so all that follows goes after it. */
const queued = new Set<Fd>();

/** Linux's memory devices (/dev/null, /dev/zero, /dev/full): character devices that are not terminals. */
const LINUX_MEM_MAJOR = 1;

function isTerminal(fd: Fd): boolean {
  let t = terminal.get(fd);
  if (t === undefined) {
    try {
      const st = fstatSync(fd);
      // rdev's major, as glibc's gnu_dev_major reads it.
      const major = ((st.rdev >> 8) & 0xfff) | (Math.floor(st.rdev / 2 ** 32) & ~0xfff);
      t = st.isCharacterDevice() && !(process.platform === 'linux' && major === LINUX_MEM_MAJOR);
    } catch {
      t = true; // not a descriptor fstat can read: node's stream says what happens
    }
    terminal.set(fd, t);
  }
  return t;
}

const stream = (fd: Fd) => (fd === 1 ? process.stdout : process.stderr);

function print(fd: Fd, text: string): void {
  if (gone.has(fd) || text === '') return;
  if (queued.has(fd) || isTerminal(fd)) {
    stream(fd).write(text);
    return;
  }
  let rest = Buffer.from(text, 'utf8');
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') {
      gone.add(fd);
    } else if (code === 'EAGAIN') {
      // A non-blocking pipe that is full: node's stream waits for it, and nothing is lost.
      queued.add(fd);
      stream(fd).write(rest);
    } else {
      throw err;
    }
  }
}

/** A line (or lines) on stdout. */
export function printOut(text: string): void {
  print(1, text);
}

/** A line (or lines) on stderr. */
export function printErr(text: string): void {
  print(2, text);
}

/** The colour conventions commander's own default follows (NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE); undefined: the stream decides. */
function colourByEnv(): boolean | undefined {
  const env = process.env;
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return undefined;
}

const hasColours = (fd: Fd) => colourByEnv() ?? (isTerminal(fd) && stream(fd).isTTY && stream(fd).hasColors?.() === true);

/** The width commander wraps help at when it has no terminal to ask (its own default, help.js). */
const HELP_WIDTH_OFF_TERMINAL = 80;

/** commander's output, through the same writes: its help, its version and its errors. */
export const COMMANDER_OUTPUT = {
  writeOut: printOut,
  writeErr: printErr,
  // Only a terminal has a width to wrap help at; commander's own default reads the stream for it.
  getOutHelpWidth: () => (isTerminal(1) ? process.stdout.columns : HELP_WIDTH_OFF_TERMINAL),
  getErrHelpWidth: () => (isTerminal(2) ? process.stderr.columns : HELP_WIDTH_OFF_TERMINAL),
  getOutHasColors: () => hasColours(1),
  getErrHasColors: () => hasColours(2),
};
