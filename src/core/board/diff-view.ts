/**
 * The board's diff view without drawing it: the diff as rows (a file's title,
 * a hunk's header, a line, a note), where each file and hunk starts, the
 * cursor's moves and the window that keeps it on screen, what a comment is
 * on, and the one prompt the comments make. Pure, computed once per diff.
 */
import type { DiffLine, DiffModel } from '../worktree/diff-model.js';
import { fileCounts } from '../worktree/diff-model.js';

export type DiffRow =
  | { kind: 'file'; file: number }
  | { kind: 'hunk'; file: number; hunk: number }
  | { kind: 'line'; file: number; hunk: number; line: DiffLine }
  | { kind: 'info'; file: number; text: string };

export interface DiffRows {
  rows: readonly DiffRow[];
  /** The row of each file's title, in order. */
  fileStarts: readonly number[];
  /** The row of each hunk's header, in order. */
  hunkStarts: readonly number[];
}

export function diffRows(model: DiffModel): DiffRows {
  const rows: DiffRow[] = [];
  const fileStarts: number[] = [];
  const hunkStarts: number[] = [];
  model.files.forEach((f, file) => {
    fileStarts.push(rows.length);
    rows.push({ kind: 'file', file });
    if (f.hunks.length === 0) rows.push({ kind: 'info', file, text: f.binary ? 'binary file: no text to show' : `no text change (${fileCounts(f)})` });
    f.hunks.forEach((h, hunk) => {
      hunkStarts.push(rows.length);
      rows.push({ kind: 'hunk', file, hunk });
      for (const line of h.lines) rows.push({ kind: 'line', file, hunk, line });
    });
  });
  return { rows, fileStarts, hunkStarts };
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/** The cursor moved by `by` rows, kept on the diff. */
export function moveCursor(rows: DiffRows, cursor: number, by: number): number {
  return clamp(cursor + by, 0, Math.max(0, rows.rows.length - 1));
}

/** The next start after the cursor (dir 1) or the last before it (dir -1); the cursor itself when there is none. */
export function jumpStart(starts: readonly number[], cursor: number, dir: 1 | -1): number {
  if (dir > 0) return starts.find((s) => s > cursor) ?? cursor;
  for (let i = starts.length - 1; i >= 0; i--) if (starts[i]! < cursor) return starts[i]!;
  return cursor;
}

/** The first row on screen so that the cursor is on it, the window never past the end. */
export function windowTop(top: number, cursor: number, height: number, total: number): number {
  const h = Math.max(1, height);
  let t = top;
  if (cursor < t) t = cursor;
  if (cursor >= t + h) t = cursor - h + 1;
  return clamp(t, 0, Math.max(0, total - h));
}

/** The file the cursor is in (-1: an empty diff). */
export const fileAt = (rows: DiffRows, cursor: number): number => rows.rows[cursor]?.file ?? -1;

export interface CommentTarget {
  file: string;
  /** The new side's line number. */
  line: number;
}

/** What a comment at the cursor is on: a line of a hunk (a removed one: the new line where it was), or a hunk's first new line; null on a file's title. */
export function commentTarget(model: DiffModel, rows: DiffRows, cursor: number): CommentTarget | null {
  const row = rows.rows[cursor];
  if (!row || row.kind === 'file' || row.kind === 'info') return null;
  const f = model.files[row.file]!;
  if (row.kind === 'line') return { file: f.path, line: row.line.newAt };
  return { file: f.path, line: Math.max(1, f.hunks[row.hunk]!.newStart) };
}

/** Where a comment is, as the prompt says it: `src/a.ts:12`. */
export const commentPlace = (t: CommentTarget): string => `${t.file}:${t.line}`;

/** The one prompt the comments make: `file:line: comment`, one a line, in the order written. */
export function commentPrompt(comments: readonly (CommentTarget & { text: string })[]): string {
  return comments.map((c) => `${commentPlace(c)}: ${c.text.trim()}`).join('\n');
}
