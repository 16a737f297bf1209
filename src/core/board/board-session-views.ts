/**
 * Two views of the selected session that open over the board, as reducer
 * steps: the explain overlay (why it has its state, src/core/agents/status-explain.ts)
 * and type-through, where every key goes to the session as typed until the
 * detach key. Both need the session running: its runner answers. Used by
 * boardReducer.
 */
import type { BoardSession, BoardState, ExplainOverlay, SessionViewAction, TypingOverlay } from './board-types.js';
import { selectedSession } from './board-derived.js';

/** Why the session has no runner to ask, or null when it has one. */
function notRunning(s: BoardSession, what: string): string | null {
  if (s.status === 'running') return null;
  if (s.status === 'starting') return `${s.name} is still starting; ${what} once it runs`;
  return `${s.name} is not running (${s.status}): ${what} needs its runner`;
}

export function sessionViewStep(state: BoardState, action: SessionViewAction, sessions: readonly BoardSession[]): BoardState {
  const o = state.overlay;
  switch (action.type) {
    case 'open-explain':
    case 'open-typing': {
      const s = selectedSession(state, sessions);
      if (!s) return state;
      const why = notRunning(s, action.type === 'open-explain' ? 'e explains it' : 'i types into it');
      if (why) return { ...state, message: { text: why, error: false } };
      const overlay: ExplainOverlay | TypingOverlay =
        action.type === 'open-explain' ? { kind: 'explain', id: s.id, name: s.name, explanation: null, error: null } : { kind: 'typing', id: s.id, name: s.name };
      return { ...state, overlay, message: null };
    }
    case 'explained':
      return o.kind === 'explain' && o.id === action.id ? { ...state, overlay: { ...o, explanation: action.explanation, error: null } } : state;
    case 'explain-failed':
      return o.kind === 'explain' && o.id === action.id ? { ...state, overlay: { ...o, error: action.message } } : state;
    case 'typing-ended':
      if (o.kind !== 'typing' || o.id !== action.id) return state;
      return { ...state, overlay: { kind: 'none' }, message: { text: action.message, error: action.error ?? false } };
  }
}
