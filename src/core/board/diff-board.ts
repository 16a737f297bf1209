/**
 * The board's review of a session's diff, as reducer steps: `D` opens it
 * (the UI loads the diff: src/ui/diff-commands.ts), the cursor moves by
 * line, page, hunk and file, `c` opens a comment field on the cursor's line,
 * `S` sends the unsent comments as one prompt and the outcome marks them.
 * Esc with unsent comments asks once more before they are dropped. Used by
 * boardReducer.
 */
import type { BoardState, DiffAction, DiffComment, DiffOverlay } from './board-types.js';
import { commentTarget, diffRows, jumpStart, moveCursor, windowTop, type DiffRows } from './diff-view.js';

export function isDiffAction(a: { type: string }): a is DiffAction {
  return a.type === 'open-diff' || a.type.startsWith('diff-');
}

export const unsentComments = (o: DiffOverlay): readonly DiffComment[] => o.comments.filter((c) => c.status === 'new');

function at(state: BoardState, o: DiffOverlay, cursor: number): BoardState {
  const total = o.rows?.rows.length ?? 0;
  return { ...state, overlay: { ...o, cursor, top: windowTop(o.top, cursor, o.height, total), closing: false } };
}

function jump(o: DiffOverlay, rows: DiffRows, to: Extract<DiffAction, { type: 'diff-jump' }>['to']): number {
  switch (to) {
    case 'first': return 0;
    case 'last': return Math.max(0, rows.rows.length - 1);
    case 'next-hunk': return jumpStart(rows.hunkStarts, o.cursor, 1);
    case 'prev-hunk': return jumpStart(rows.hunkStarts, o.cursor, -1);
    case 'next-file': return jumpStart(rows.fileStarts, o.cursor, 1);
    case 'prev-file': return jumpStart(rows.fileStarts, o.cursor, -1);
  }
}

const say = (state: BoardState, text: string, error = false): BoardState => ({ ...state, message: { text, error } });

export function diffStep(state: BoardState, action: DiffAction): BoardState {
  if (action.type === 'open-diff') {
    const overlay: DiffOverlay = { kind: 'diff', id: action.id, name: action.name, model: null, rows: null, error: null, cursor: 0, top: 0, height: 20, comments: [], draft: null, closing: false, keys: false };
    return { ...state, overlay, message: null };
  }
  const o = state.overlay;
  if (o.kind !== 'diff') return state;
  switch (action.type) {
    case 'diff-loaded':
      return o.id === action.id ? { ...state, overlay: { ...o, model: action.model, rows: diffRows(action.model), error: null, cursor: 0, top: 0 } } : state;
    case 'diff-failed':
      return o.id === action.id ? { ...state, overlay: { ...o, error: action.message } } : state;
    case 'diff-viewport':
      return action.rows === o.height ? state : { ...state, overlay: { ...o, height: action.rows, top: windowTop(o.top, o.cursor, action.rows, o.rows?.rows.length ?? 0) } };
    case 'diff-move':
      return o.rows ? at(state, o, moveCursor(o.rows, o.cursor, action.by)) : state;
    case 'diff-page':
      return o.rows ? at(state, o, moveCursor(o.rows, o.cursor, action.by * Math.max(1, o.height - 1))) : state;
    case 'diff-jump':
      return o.rows ? at(state, o, jump(o, o.rows, action.to)) : state;
    case 'diff-keys':
      return { ...state, overlay: { ...o, keys: !o.keys } };
    case 'diff-comment': {
      const target = o.model && o.rows ? commentTarget(o.model, o.rows, o.cursor) : null;
      if (!target) return say(state, 'move to a line of the diff to comment on it');
      return { ...state, overlay: { ...o, draft: { target, text: '' }, closing: false }, message: null };
    }
    case 'diff-comment-add': {
      const d = o.draft;
      if (!d) return state;
      if (d.text.trim() === '') return { ...state, overlay: { ...o, draft: null } };
      const comments = [...o.comments, { ...d.target, text: d.text.trim(), status: 'new' as const }];
      return say({ ...state, overlay: { ...o, comments, draft: null } }, `comment on ${d.target.file}:${d.target.line}; S sends ${unsentComments({ ...o, comments }).length} to ${o.name}`);
    }
    case 'diff-comment-cancel':
      return { ...state, overlay: { ...o, draft: null } };
    case 'diff-sending': {
      if (o.comments.some((c) => c.status === 'sending')) return state;
      return { ...state, overlay: { ...o, comments: o.comments.map((c) => (c.status === 'new' ? { ...c, status: 'sending' } : c)), closing: false } };
    }
    case 'diff-sent': {
      if (o.id !== action.id) return state;
      const comments = o.comments.map((c) => (c.status === 'sending' ? { ...c, status: action.status } : c));
      return say({ ...state, overlay: { ...o, comments } }, action.message, action.error);
    }
    case 'diff-close': {
      // Esc (or q) over the key list closes the list, as it closes the board's own help: the review stays.
      if (o.keys) return { ...state, overlay: { ...o, keys: false } };
      const n = unsentComments(o).length;
      if (n > 0 && !o.closing) return say({ ...state, overlay: { ...o, closing: true } }, `${n} unsent comment${n === 1 ? '' : 's'}: S sends them; Esc again drops them`);
      return { ...state, overlay: { kind: 'none' }, message: null };
    }
  }
}

/** The comment field's text edited (board-fields.ts's step for the diff). */
export function editDraft(state: BoardState, o: DiffOverlay, edit: (v: string) => string): BoardState {
  return o.draft ? { ...state, overlay: { ...o, draft: { ...o.draft, text: edit(o.draft.text) } } } : state;
}
