/** The diff review's window of lines: both sides' numbers, +/- in colour, the cursor line inverse. */
import { Text } from 'ink';
import { fileCounts, fileLabel, type DiffModel } from '../../core/worktree/diff-model.js';
import type { DiffRow } from '../../core/board/diff-view.js';
import { cut, fit } from '../text-width.js';

export interface DiffLinesProps {
  model: DiffModel;
  rows: readonly DiffRow[];
  top: number;
  height: number;
  cursor: number;
  /** `file:line` of the lines that have a comment. */
  commented: ReadonlySet<string>;
  width: number;
}

const NO = 5;
/** Tabs as spaces, other control characters gone: a line is one screen row. */
const clean = (s: string) => s.replace(/\t/g, '    ').replace(/[\x00-\x1f\x7f]/g, '');
const num = (n: number | null) => (n === null ? ''.padStart(NO) : String(n).padStart(NO));

const COLORS = { add: 'green', del: 'red', ctx: undefined, note: 'gray' } as const;
const MARKS = { add: '+', del: '-', ctx: ' ', note: ' ' } as const;

/** One row of the diff as a line of text with its colour. */
function rowText(model: DiffModel, row: DiffRow, commented: ReadonlySet<string>): { text: string; color?: string; bold?: boolean } {
  const f = model.files[row.file]!;
  switch (row.kind) {
    case 'file':
      return { text: `${fileLabel(f)}  ${fileCounts(f)}${f.status === 'modified' ? '' : ` (${f.status})`}`, bold: true };
    case 'info':
      return { text: `  ${row.text}`, color: 'gray' };
    case 'hunk':
      return { text: f.hunks[row.hunk]!.header, color: 'cyan' };
    case 'line': {
      const l = row.line;
      const mark = commented.has(`${f.path}:${l.newAt}`) ? '●' : ' ';
      return { text: `${num(l.oldNo)} ${num(l.newNo)}${mark}${MARKS[l.kind]}${clean(l.text)}`, color: COLORS[l.kind] };
    }
  }
}

/** The window of the diff on screen: numbers of both sides, +/- in colour, hunk headers cyan, the cursor line inverse. */
export function DiffLines({ model, rows, top, height, cursor, commented, width }: DiffLinesProps) {
  const shown = rows.slice(top, top + height);
  return (
    <>
      {shown.map((row, i) => {
        const r = rowText(model, row, commented);
        const here = top + i === cursor;
        return (
          <Text key={top + i} color={r.color} bold={r.bold} inverse={here} wrap="truncate-end">
            {here ? fit(cut(r.text, width), width) : cut(r.text, width)}
          </Text>
        );
      })}
    </>
  );
}
