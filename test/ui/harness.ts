/**
 * Renders the board's real components with Ink into an emulated terminal
 * (@xterm/headless): a fake stdout with a size whose writes go into the
 * terminal, and a stdin that is a real stream (Ink reads it in paused mode,
 * as it does a TTY) with the TTY methods Ink calls.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { Terminal } from '../../src/state/headless-terminal.js';

export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly term: Terminal;
  written = '';
  /** Each write as it came (Ink's frames, the board's rings). */
  readonly writes: string[] = [];

  constructor(public columns: number, public rows: number) {
    super();
    // convertEol: a real TTY in raw mode (as libuv sets it) still turns \n into \r\n.
    this.term = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0, convertEol: true });
  }

  write(data: string | Uint8Array, cb?: (() => void) | string, cb2?: () => void): boolean {
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    this.written += text;
    this.writes.push(text);
    this.term.write(text);
    const done = typeof cb === 'function' ? cb : cb2;
    done?.();
    return true;
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.term.resize(columns, rows);
    this.emit('resize');
  }

  /** Waits until the terminal has parsed everything written so far. */
  flush(): Promise<void> {
    return new Promise((r) => this.term.write('', r));
  }

  /** The screen as text, one string per row, right-trimmed. */
  lines(): string[] {
    const buf = this.term.buffer.active;
    return Array.from({ length: this.rows }, (_, y) => buf.getLine(y)?.translateToString(true) ?? '');
  }

  text(): string {
    return this.lines().join('\n');
  }
}

export class FakeStdin extends PassThrough {
  readonly isTTY = true;
  isRaw = false;
  readonly rawModes: boolean[] = [];
  refs = 0;

  setRawMode(raw: boolean): this {
    this.isRaw = raw;
    this.rawModes.push(raw);
    return this;
  }
  ref(): this {
    this.refs++;
    return this;
  }
  unref(): this {
    this.refs--;
    return this;
  }
  /** Sends bytes as one read, as a terminal does for one key (or a paste). */
  press(keys: string): void {
    this.write(keys);
  }

  /** Types keys one at a time, each its own read, as a person does. */
  async type(...keys: string[]): Promise<void> {
    for (const k of keys) {
      this.write(k);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

export const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  backspace: '\x7f',
  pageDown: '\x1b[6~',
  pageUp: '\x1b[5~',
  end: '\x1b[F',
  home: '\x1b[H',
  ctrlC: '\x03',
} as const;

/** Polls `check` (which throws until it holds) every 10 ms, up to `ms`. */
export async function eventually<T>(out: FakeStdout, check: () => T, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    await out.flush();
    try {
      return check();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${(err as Error).message}\n--- screen ---\n${out.text()}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The palette colour (0-15) of the first cell on screen showing `text`, or null for the default colour. */
export function colorOf(out: FakeStdout, text: string): number | null {
  const rows = out.lines();
  const buf = out.term.buffer.active;
  for (let y = 0; y < rows.length; y++) {
    const line = buf.getLine(y)!;
    // Columns, not string indexes: walk the cells.
    for (let x = 0; x < out.columns; x++) {
      if (line.getCell(x)?.getChars() !== text[0]) continue;
      let s = '';
      for (let i = 0; s.length < text.length && x + i < out.columns; i++) s += line.getCell(x + i)?.getChars() || ' ';
      if (s !== text) continue;
      const cell = line.getCell(x)!;
      return cell.isFgDefault() ? null : cell.getFgColor();
    }
  }
  throw new Error(`"${text}" is not on the screen`);
}

/** Every cell of the screen as one string per row: what is there and how it looks. */
export function cells(out: FakeStdout): string[] {
  const buf = out.term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < out.rows; y++) {
    const line = buf.getLine(y)!;
    let row = '';
    for (let x = 0; x < out.columns; x++) {
      const c = line.getCell(x)!;
      row += `${c.getChars() || '∅'}/${c.getWidth()}/${c.getFgColorMode()}:${c.getFgColor()}/${c.getBgColorMode()}:${c.getBgColor()}/${c.isBold()}${c.isDim()}${c.isInverse()}${c.isUnderline()}|`;
    }
    rows.push(row);
  }
  return rows;
}
