import { parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffModel, fileCounts, fileLabel } from '../../src/core/worktree/diff-model.js';
import { colorPatch, diffJson, statText } from '../../src/core/worktree/diff-text.js';
import { PATCH } from './diff-patch.js';
import { commentPrompt, commentTarget, diffRows, jumpStart, moveCursor, windowTop } from '../../src/core/board/diff-view.js';


const model = () => diffModel(parsePatch(PATCH));

describe('diffModel', () => {
  it('names each file, its status and counts', () => {
    const m = model();
    expect(m.files.map((f) => [fileLabel(f), f.status, fileCounts(f)])).toEqual([
      ['src/a.ts', 'modified', '+3 -2'],
      ['new.txt', 'added', '+2 -0'],
      ['gone.txt', 'deleted', '+0 -1'],
      ['old.txt → moved.txt', 'renamed', 'renamed'],
      ['logo.png', 'added', 'binary'],
    ]);
    expect([m.added, m.removed]).toEqual([5, 3]);
  });

  it('numbers both sides; a removed line sits before the new line that follows it', () => {
    const [h1, h2] = model().files[0]!.hunks;
    expect(h1!.lines.map((l) => [l.kind, l.oldNo, l.newNo, l.newAt])).toEqual([
      ['ctx', 1, 1, 1], ['del', 2, null, 2], ['add', null, 2, 2], ['ctx', 3, 3, 3], ['add', null, 4, 4],
    ]);
    expect(h2!.header).toBe('@@ -10,2 +11,2 @@');
    expect(h2!.lines.map((l) => [l.kind, l.oldNo, l.newNo])).toEqual([['ctx', 10, 11], ['del', 11, null], ['add', null, 12], ['note', null, null]]);
    expect(model().files[1]!.hunks[0]!.lines.map((l) => l.newNo)).toEqual([1, 2]);
  });

  it('an empty patch is no file', () => {
    expect(diffModel(parsePatch('')).files).toEqual([]);
  });
});

describe('the view', () => {
  it('has a row per file title, note, hunk header and line, and knows where each starts', () => {
    const r = diffRows(model());
    expect(r.rows).toHaveLength(12 + 4 + 3 + 2 + 2);
    expect(r.fileStarts).toEqual([0, 12, 16, 19, 21]);
    expect(r.hunkStarts).toEqual([1, 7, 13, 17]);
    expect(r.rows[20]).toEqual({ kind: 'info', file: 3, text: 'no text change (renamed)' });
    expect(r.rows[22]).toEqual({ kind: 'info', file: 4, text: 'binary file: no text to show' });
  });

  it('moves within the rows, jumps between starts, and keeps the cursor in the window', () => {
    const r = diffRows(model());
    expect(moveCursor(r, 0, -5)).toBe(0);
    expect(moveCursor(r, 20, 50)).toBe(r.rows.length - 1);
    expect(jumpStart(r.hunkStarts, 1, 1)).toBe(7);
    expect(jumpStart(r.hunkStarts, 7, -1)).toBe(1);
    expect(jumpStart(r.hunkStarts, 17, 1)).toBe(17);
    expect(jumpStart(r.fileStarts, 0, -1)).toBe(0);
    expect(windowTop(0, 15, 10, 23)).toBe(6);
    expect(windowTop(6, 3, 10, 23)).toBe(3);
    expect(windowTop(20, 22, 10, 23)).toBe(13);
  });

  it('a comment is on the new line; on a hunk header its first new line; none on a file title', () => {
    const m = model();
    const r = diffRows(m);
    expect(commentTarget(m, r, 3)).toEqual({ file: 'src/a.ts', line: 2 }); // -two
    expect(commentTarget(m, r, 4)).toEqual({ file: 'src/a.ts', line: 2 }); // +TWO
    expect(commentTarget(m, r, 7)).toEqual({ file: 'src/a.ts', line: 11 });
    expect(commentTarget(m, r, 0)).toBeNull();
    expect(commentTarget(m, r, 22)).toBeNull();
  });

  it('the comments make one prompt, file:line: comment a line', () => {
    expect(commentPrompt([{ file: 'src/a.ts', line: 2, text: ' why upper case? ' }, { file: 'new.txt', line: 1, text: 'test this' }])).toBe(
      'src/a.ts:2: why upper case?\nnew.txt:1: test this',
    );
  });
});

describe('the CLI text', () => {
  it('--stat: counts, names and totals', () => {
    expect(statText(model()).split('\n')).toEqual([
      '+3 -2    src/a.ts',
      '+2 -0    new.txt  (added)',
      '+0 -1    gone.txt  (deleted)',
      'renamed  old.txt → moved.txt  (renamed)',
      'binary   logo.png  (added)',
      '5 files changed, 5 insertions(+), 3 deletions(-)',
    ]);
  });

  it('--color: headers bold, hunks cyan, + green, - red, even a removed line that looks like a header', () => {
    const out = colorPatch('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n--- a/y\n+z\n').split('\n');
    expect(out).toEqual(['\x1b[1mdiff --git a/x b/x\x1b[0m', '\x1b[1m--- a/x\x1b[0m', '\x1b[1m+++ b/x\x1b[0m', '\x1b[36m@@ -1 +1 @@\x1b[0m', '\x1b[31m--- a/y\x1b[0m', '\x1b[32m+z\x1b[0m', '']);
  });

  it('--json: the lines with both numbers', () => {
    const j = diffJson(model());
    expect(j.files[0]!.hunks[0]!.lines[1]).toEqual({ kind: 'del', text: 'two', old: 2, new: null });
  });
});
