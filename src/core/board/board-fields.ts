/**
 * The text fields of what opens over the board (the new-session form, the
 * rename form, the chat's and the prompt's input lines) as one edit step (`typed`: the text
 * a key typed, for the form's choices, which take letters, not edits);
 * a field whose content is on its way somewhere takes no edits. The filter
 * is the reducer's own (it moves the selection). Used by boardReducer.
 */
import type { BoardState } from './board-types.js';
import { editNewForm } from './new-form.js';
import { editDraft } from './diff-board.js';

export function editOverlayField(state: BoardState, edit: (value: string) => string, typed?: string): BoardState {
  const o = state.overlay;
  switch (o.kind) {
    case 'new': {
      const next = editNewForm(o, edit, typed);
      return next === o ? state : { ...state, overlay: next };
    }
    case 'rename':
      return o.pending ? state : { ...state, overlay: { ...o, value: edit(o.value), error: null } };
    case 'chat':
      return o.pending ? state : { ...state, overlay: { ...o, input: edit(o.input) } };
    case 'prompt':
      return o.results.length > 0 ? state : { ...state, overlay: { ...o, input: edit(o.input) } };
    case 'diff':
      return editDraft(state, o, edit);
    default:
      return state;
  }
}

/** Drops the last character (a whole code point, not half a surrogate pair). */
export const dropLast = (v: string) => Array.from(v).slice(0, -1).join('');
