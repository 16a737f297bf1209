/**
 * What the CLI prints, and commander's output: straight to fd 1 and 2 when they are not
 * terminals. The agents run `hook`, `send` and `chat post` on every turn with their output in a
 * pipe or a file, and node builds process.stdout on first use: for a pipe that loads `net` and
 * node's streams, for a file the streams alone (about 3 and 1.5 ms of a run here, where node's own
 * start is about 20 ms and ours beyond it about 7). A terminal keeps node's own
 * stream: its width, its colours and its non-blocking writes are what commander and a person
 * expect, and a person at a terminal does not run these every turn.
 */
import { fstatSync, writeSync } from 'node:fs';

/** Linux's memory devices (/dev/null, /dev/zero, /dev/full): character devices that are not terminals. */
const LINUX_MEM_MAJOR = 1;

/** A terminal, or a device we do not know (node's stream decides); false for a pipe, a socket or a file. */
function isTerminalFd(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    // rdev's major, as glibc's gnu_dev_major reads it.
    const major = ((st.rdev >> 8) & 0xfff) | (Math.floor(st.rdev / 2 ** 32) & ~0xfff);
    return st.isCharacterDevice() && !(process.platform === 'linux' && major === LINUX_MEM_MAJOR);
  } catch {
    return true; // not a descriptor fstat can read: node's stream says what happens
  }
}

/** The colour conventions commander's own default follows (NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE); undefined: the stream decides. */
function colourByEnv(): boolean | undefined {
  const env = process.env;
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return undefined;
}

/** The width commander wraps help at when it has no terminal to ask (its own default, help.js). */
const HELP_WIDTH_OFF_TERMINAL = 80;

/**
 * How an fd's output goes: `direct`, written to the descriptor ourselves; `stream`, through node's
 * stream (a terminal, or a pipe that was full once: the stream holds the rest, so all that follows
 * goes after it); `gone`, its reader went away and what is left has nobody to read it.
 */
type Mode = 'direct' | 'stream' | 'gone';

class StdOutput {
  private isTerminal: boolean | undefined;
  private mode: Mode | undefined;
  private readonly goneFns: Array<() => void> = [];
  private streamWatched = false;

  constructor(private readonly fd: 1 | 2) {}

  private get terminal(): boolean {
    return (this.isTerminal ??= isTerminalFd(this.fd));
  }

  private get stream(): NodeJS.WriteStream {
    return this.fd === 1 ? process.stdout : process.stderr;
  }

  /** The width to wrap help at: only a terminal has one to ask (commander's own default reads the stream for it). */
  get helpWidth(): number {
    return this.terminal ? (this.stream.columns ?? HELP_WIDTH_OFF_TERMINAL) : HELP_WIDTH_OFF_TERMINAL;
  }

  get colours(): boolean {
    return colourByEnv() ?? (this.terminal && this.stream.isTTY && this.stream.hasColors?.() === true);
  }

  print(text: string): void {
    this.mode ??= this.terminal ? 'stream' : 'direct';
    if (this.mode === 'gone' || text === '') return;
    if (this.mode === 'stream') {
      this.toStream(text);
      return;
    }
    let rest = Buffer.from(text, 'utf8');
    try {
      while (rest.length > 0) rest = rest.subarray(writeSync(this.fd, rest));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') {
        this.readerGone();
      } else if (code === 'EAGAIN') {
        // A non-blocking pipe that is full: node's stream waits for it, and nothing is lost.
        this.mode = 'stream';
        this.toStream(rest);
      } else {
        throw err;
      }
    }
  }

  /** `fn` runs once the reader has gone (EPIPE), on either path; at once if it has already. Without one, a failing stream throws as node's does. */
  onReaderGone(fn: () => void): void {
    if (this.mode === 'gone') {
      fn();
      return;
    }
    this.goneFns.push(fn);
    if (this.mode === 'stream') this.watchStream();
  }

  private toStream(data: string | Uint8Array): void {
    this.watchStream();
    this.stream.write(data);
  }

  private watchStream(): void {
    if (this.streamWatched || this.goneFns.length === 0) return;
    this.streamWatched = true;
    // A standard output's stream fails when its reader went away (EPIPE) or its descriptor did: nobody reads either way.
    this.stream.on('error', () => this.readerGone());
  }

  private readerGone(): void {
    if (this.mode === 'gone') return;
    this.mode = 'gone';
    for (const fn of this.goneFns) fn();
  }
}

const stdout = new StdOutput(1);
const stderr = new StdOutput(2);

/** A line (or lines) on stdout. */
export function printOut(text: string): void {
  stdout.print(text);
}

/** A line (or lines) on stderr. */
export function printErr(text: string): void {
  stderr.print(text);
}

/** How wide a line on stdout may be: the terminal's width, 80 off a terminal. */
export function outputWidth(): number {
  return stdout.helpWidth;
}

/** `fn` runs once stdout's reader has gone (a `| head` that had enough): a command that prints until stopped ends there. */
export function onStdoutGone(fn: () => void): void {
  stdout.onReaderGone(fn);
}

/** commander's output, through the same writes: its help, its version and its errors. */
export const COMMANDER_OUTPUT = {
  writeOut: printOut,
  writeErr: printErr,
  getOutHelpWidth: () => stdout.helpWidth,
  getErrHelpWidth: () => stderr.helpWidth,
  getOutHasColors: () => stdout.colours,
  getErrHasColors: () => stderr.colours,
};
