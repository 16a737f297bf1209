/** A snapshot played into a private headless terminal and read back as text: what `peek` prints. */
import { newTerminal } from '../../state/headless-terminal.js';
import { SerializeAddon } from './serialize-addon.js';

export interface RenderedScreen {
  /** Plain text, one string per line, history first, trailing blank lines dropped. */
  lines: string[];
  /** The same lines with colours and attributes as SGR sequences. */
  ansiLines: string[];
  /** Index in `lines` where the visible screen starts; history is above it. */
  screenStart: number;
}

/**
 * Plays a snapshot (history, then the screen frame) into a private headless
 * terminal of the session's size and reads the text back: what `peek` prints.
 */
export async function renderSnapshot(cols: number, rows: number, history: string, frame: string): Promise<RenderedScreen> {
  const historyLines = (history + frame).split('\n').length;
  const term = newTerminal({ cols, rows, scrollback: historyLines + rows + 10, allowProposedApi: true });
  const ser = new SerializeAddon();
  term.loadAddon(ser);
  await new Promise<void>((r) => term.write(history + frame, r));
  const buf = term.buffer.normal;
  const lines: string[] = [];
  const ansiLines: string[] = [];
  for (let i = 0; i < buf.length; i++) {
    lines.push(buf.getLine(i)?.translateToString(true) ?? '');
    ansiLines.push(ser.serialize({ range: { start: i, end: i }, excludeModes: true, excludeAltBuffer: true }) + '\x1b[0m');
  }
  // When the alternate screen is on, the user is looking at it: show that instead of the normal screen.
  if (term.buffer.active.type === 'alternate') {
    const altBuf = term.buffer.active;
    lines.splice(lines.length - rows, rows, ...Array.from({ length: rows }, (_, y) => altBuf.getLine(y)?.translateToString(true) ?? ''));
    ansiLines.splice(ansiLines.length - rows, rows, ...lines.slice(-rows));
  }
  const screenStart = Math.max(0, buf.length - rows);
  while (lines.length > screenStart && lines[lines.length - 1] === '') {
    lines.pop();
    ansiLines.pop();
  }
  term.dispose();
  return { lines, ansiLines, screenStart };
}
