import { writeFileAtomic } from '../../state/write-errors.js';
import type { TerminalModel } from './terminal-model.js';

/** The visible screen as text, top to bottom, trailing blanks trimmed (for status detectors). */
export function screenLines(model: TerminalModel): string[] {
  const buf = model.term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < model.term.rows; y++) lines.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
  return lines;
}

/** The last line on the screen with something on it, for one-line previews. */
export const PREVIEW_LINE_MAX = 200;
export function lastScreenLine(model: TerminalModel): string {
  const buf = model.term.buffer.active;
  for (let y = model.term.rows - 1; y >= 0; y--) {
    const text = buf.getLine(buf.viewportY + y)?.translateToString(true).trim();
    if (text) return text.slice(0, PREVIEW_LINE_MAX);
  }
  return '';
}

/** History and screen of an exited session, kept for peek and attach (file-formats.md). */
export function saveFinalScreen(model: TerminalModel, file: string): { ok: true } | { ok: false; message: string } {
  try {
    const history = model.historySlice(0, model.historyLength);
    // A full disk leaves no temporary file (and the runner tries again: SessionExit.finishOnceSaved).
    writeFileAtomic(file, history + model.screenFrame());
    return { ok: true };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

/** The text of the last `lines` lines of history and screen, for reading what a program printed on exit. */
export function tailText(model: TerminalModel, lines: number): string {
  const buf = model.term.buffer.active;
  const end = buf.length;
  const out: string[] = [];
  for (let y = Math.max(0, end - lines); y < end; y++) out.push(buf.getLine(y)?.translateToString(true) ?? '');
  return out.join('\n');
}
