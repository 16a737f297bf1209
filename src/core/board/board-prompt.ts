/**
 * The board's marks and its prompt line, as reducer steps: Space marks rows,
 * `p` opens a line whose Enter sends one prompt to every marked session (or
 * the selected one), and the panel then shows how it went in each. The
 * sending itself is the UI's (src/ui/prompt-commands.ts); it reports each
 * session's outcome back as `prompt-result`. Used by boardReducer.
 */
import type { BoardSession, BoardState, PromptAction, PromptOverlay, PromptResult, PromptStatus } from './board-types.js';
import { selectedSession } from './board-derived.js';

/** The marked sessions, in the list's order. */
export function markedSessions(state: BoardState, sessions: readonly BoardSession[]): { id: string; name: string }[] {
  const marked = new Set(state.marks);
  return sessions.filter((s) => marked.has(s.id)).map(({ id, name }) => ({ id, name }));
}

const done = (r: PromptResult) => r.status !== 'sending';
const typed = (r: PromptResult) => r.status === 'applied' || r.status === 'accepted';

/** The footer's line once every session has answered: `prompt applied in alpha, beta` or the count of each outcome. */
export function promptSummary(results: readonly PromptResult[]): { text: string; error: boolean } {
  const error = !results.every(typed);
  if (results.length === 1) {
    const r = results[0]!;
    return { text: `${r.name}: ${r.status}${r.detail ? `: ${r.detail}` : ''}`, error };
  }
  const counts = new Map<PromptStatus, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return { text: `prompt sent to ${results.length} sessions: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}`, error };
}

export function promptStep(state: BoardState, action: PromptAction, sessions: readonly BoardSession[]): BoardState {
  const o = state.overlay;
  switch (action.type) {
    case 'toggle-mark': {
      const s = selectedSession(state, sessions);
      if (!s) return state;
      const marks = state.marks.includes(s.id) ? state.marks.filter((id) => id !== s.id) : [...state.marks, s.id];
      return { ...state, marks };
    }
    case 'open-prompt': {
      const marked = markedSessions(state, sessions);
      const s = selectedSession(state, sessions);
      const targets = marked.length > 0 ? marked : s ? [{ id: s.id, name: s.name }] : [];
      if (targets.length === 0) return state;
      return { ...state, overlay: { kind: 'prompt', targets, input: '', results: [], sent: '' }, message: null };
    }
    case 'prompt-sending': {
      if (o.kind !== 'prompt' || o.results.length > 0 || o.input.trim() === '') return state;
      const results = o.targets.map((t): PromptResult => ({ ...t, status: 'sending' }));
      return { ...state, overlay: { ...o, results, sent: o.input.trim(), input: '' } };
    }
    case 'prompt-resending': {
      if (o.kind !== 'prompt' || !o.results.every(done)) return state;
      const results = o.results.map((r): PromptResult => (action.ids.includes(r.id) && r.held ? { id: r.id, name: r.name, status: 'sending' } : r));
      return { ...state, overlay: { ...o, results }, message: null };
    }
    case 'prompt-result': {
      if (o.kind !== 'prompt' || !o.results.some((r) => r.id === action.result.id && r.status === 'sending')) return state;
      const results = o.results.map((r) => (r.id === action.result.id ? action.result : r));
      const overlay: PromptOverlay = { ...o, results };
      return results.every(done) ? { ...state, overlay, message: promptSummary(results) } : { ...state, overlay };
    }
  }
}

/** A mark goes with its session; the rows on the list are all that is kept. */
export function keepMarks(state: BoardState, sessions: readonly BoardSession[]): BoardState {
  if (state.marks.length === 0) return state;
  const ids = new Set(sessions.map((s) => s.id));
  return state.marks.every((id) => ids.has(id)) ? state : { ...state, marks: state.marks.filter((id) => ids.has(id)) };
}

