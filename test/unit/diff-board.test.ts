import { parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { keyModeOf } from '../../src/core/board/board-derived.js';
import type { BoardState, DiffOverlay } from '../../src/core/board/board-types.js';
import { emptyBoard, run, type Board } from '../helpers/board-model.js';
import { diffModel } from '../../src/core/worktree/diff-model.js';
import { BINDINGS, Command, matchKey } from '../../src/core/board/keybindings.js';
import { PATCH } from './diff-patch.js';

const diff = (s: BoardState) => s.overlay as DiffOverlay;

function opened(): Board {
  return run(emptyBoard(), { type: 'open-diff', id: 'a', name: 'api' }, { type: 'diff-loaded', id: 'a', model: diffModel(parsePatch(PATCH)) }, { type: 'diff-viewport', rows: 5 });
}

describe('the diff view on the board', () => {
  it('opens, loads, and its keys are its own mode', () => {
    const s = opened();
    expect(keyModeOf(s)).toBe('diff');
    expect(diff(s).rows!.rows).toHaveLength(23);
    expect(run(s, { type: 'diff-loaded', id: 'other', model: diffModel([]) })).toEqual(s);
  });

  it('moves by line, page, hunk and file, keeping the cursor in its window', () => {
    let s = run(opened(), { type: 'diff-page', by: 1 });
    expect([diff(s).cursor, diff(s).top]).toEqual([4, 0]);
    s = run(s, { type: 'diff-jump', to: 'next-hunk' });
    expect([diff(s).cursor, diff(s).top]).toEqual([7, 3]);
    s = run(s, { type: 'diff-jump', to: 'next-file' });
    expect(diff(s).cursor).toBe(12);
    s = run(s, { type: 'diff-jump', to: 'prev-file' }, { type: 'diff-move', by: -1 });
    expect(diff(s).cursor).toBe(0);
    s = run(s, { type: 'diff-jump', to: 'last' });
    expect([diff(s).cursor, diff(s).top]).toEqual([22, 18]);
  });

  it('c opens a field on the cursor line; Enter adds the comment, Esc drops the field', () => {
    let s = run(opened(), { type: 'diff-comment' });
    expect(s.message?.text).toBe('move to a line of the diff to comment on it');
    s = run(s, { type: 'diff-move', by: 4 }, { type: 'diff-comment' });
    expect(keyModeOf(s)).toBe('diff-comment');
    s = run(s, { type: 'type', text: 'why upper?' }, { type: 'diff-comment-add' });
    expect(diff(s).comments).toEqual([{ file: 'src/a.ts', line: 2, text: 'why upper?', status: 'new' }]);
    expect(keyModeOf(s)).toBe('diff');
    s = run(s, { type: 'diff-comment' }, { type: 'type', text: 'x' }, { type: 'diff-comment-cancel' });
    expect(diff(s).comments).toHaveLength(1);
  });

  it('sending marks the unsent ones, once; the outcome marks them sent, or back to unsent when nothing was typed', () => {
    let s = run(opened(), { type: 'diff-move', by: 2 }, { type: 'diff-comment' }, { type: 'type', text: 'one' }, { type: 'diff-comment-add' }, { type: 'diff-sending' });
    expect(diff(s).comments.map((c) => c.status)).toEqual(['sending']);
    s = run(s, { type: 'diff-comment' }, { type: 'type', text: 'two' }, { type: 'diff-comment-add' });
    expect(run(s, { type: 'diff-sending' })).toBe(s); // one send at a time
    s = run(s, { type: 'diff-sent', id: 'a', status: 'sent', message: '1 comment sent to api', error: false });
    expect(diff(s).comments.map((c) => c.status)).toEqual(['sent', 'new']);
    s = run(s, { type: 'diff-sending' }, { type: 'diff-sent', id: 'a', status: 'new', message: 'not typed', error: true });
    expect(diff(s).comments.map((c) => c.status)).toEqual(['sent', 'new']);
  });

  it('Esc with unsent comments asks once more; without, it goes back', () => {
    let s = run(opened(), { type: 'diff-move', by: 2 }, { type: 'diff-comment' }, { type: 'type', text: 'one' }, { type: 'diff-comment-add' }, { type: 'diff-close' });
    expect(s.overlay.kind).toBe('diff');
    expect(s.message?.text).toBe('1 unsent comment: S sends them; Esc again drops them');
    s = run(s, { type: 'diff-close' });
    expect(s.overlay.kind).toBe('none');
    expect(run(opened(), { type: 'diff-close' }).overlay.kind).toBe('none');
  });

  it('Esc over the key list (?) closes the list, not the review', () => {
    let s = run(opened(), { type: 'diff-move', by: 3 }, { type: 'diff-keys' });
    expect(diff(s).keys).toBe(true);
    s = run(s, { type: 'diff-close' });
    expect(s.overlay.kind).toBe('diff');
    expect(diff(s).keys).toBe(false);
    expect(diff(s).cursor).toBe(3);
    expect(run(s, { type: 'diff-close' }).overlay.kind).toBe('none');
  });
});

describe('the diff keys', () => {
  it('are bound in their modes, with no key bound twice in a mode', () => {
    expect(matchKey('list', 'D', { shift: true })).toBe(Command.Diff);
    expect(matchKey('diff', ']', {})).toBe(Command.NextHunk);
    expect(matchKey('diff', '{', {})).toBe(Command.PrevFile);
    expect(matchKey('diff', 'n', {})).toBe(Command.NextFile);
    expect(matchKey('diff', 'c', {})).toBe(Command.Comment);
    expect(matchKey('diff', 'S', { shift: true })).toBe(Command.SendComments);
    expect(matchKey('diff', '', { escape: true })).toBe(Command.Cancel);
    expect(matchKey('diff-comment', 'q', {})).toBeNull(); // typed into the comment
    expect(matchKey('diff-comment', '', { escape: true })).toBe(Command.Cancel);
    for (const mode of ['diff', 'diff-comment'] as const) {
      const keys = BINDINGS[mode].flatMap((b) => b.keys.map((k) => JSON.stringify(k)));
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});
