import { selectedSession } from '../../core/board/board-derived.js';
import type { HintWhen } from '../../core/board/keybindings.js';
import { focusedField } from '../../core/board/new-form.js';
import { sessionState } from '../../core/session-state.js';
import { useBoardState } from '../contexts/BoardStateContext.js';

/** Each set of the footer hints that apply only sometimes, one object apiece: the footer is memoized on it. */
const HINT_SETS = new Map<string, ReadonlySet<HintWhen>>();

/** The footer hints that apply only sometimes (keybindings.ts `when`), and whether they do now (the same object while they stay). */
export function useFooterHints(): ReadonlySet<HintWhen> {
  const { state, sessions } = useBoardState();
  const on: HintWhen[] = [];
  const selected = selectedSession(state, sessions);
  if (selected && sessionState(selected) === 'waiting') on.push('waiting');
  if (selected && sessionState(selected) === 'limited' && !selected.resumeAfterLimit) on.push('limited');
  if (state.marks.length > 0) on.push('marked');
  if (state.overlay.kind === 'prompt' && state.overlay.results.some((r) => r.held)) on.push('held');
  if (state.overlay.kind === 'new' && ['kind', 'worktree'].includes(focusedField(state.overlay))) on.push('choice');
  const key = on.join(' ');
  let set = HINT_SETS.get(key);
  if (!set) HINT_SETS.set(key, (set = new Set(on)));
  return set;
}
