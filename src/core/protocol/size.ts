/** A terminal's size, kept within what a PTY and the runner's model can hold. */
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from './protocol.js';

export interface TermSize { cols: number; rows: number }

/** What a size that is not a number at all (NaN) becomes. */
export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 24;

/** Keeps a requested size inside what a PTY and the headless model can hold. */
export function clampSize(cols: number, rows: number): TermSize {
  const clamp = (v: number, lo: number, hi: number, fallback: number) =>
    Number.isNaN(v) ? fallback : Math.min(hi, Math.max(lo, Math.trunc(v)));
  return { cols: clamp(cols, MIN_COLS, MAX_COLS, DEFAULT_COLS), rows: clamp(rows, MIN_ROWS, MAX_ROWS, DEFAULT_ROWS) };
}
