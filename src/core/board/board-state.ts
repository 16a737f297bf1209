/**
 * The board's reducer, pure: over the session list the feed gave (handed in, never kept), the
 * filter, the selection (by id, so it stays put as sessions come and go), the window of the list on
 * screen, whatever is
 * open over the list (help, filter bar, a form, a confirmation, the chat pane) with a one-line
 * message, and the rows that want the user's attention (a session that finished or needs them,
 * until the user looks: moves onto its row or attaches). The shapes are in ./board-types.ts; what
 * the state says without changing it (the visible rows, the selection) in ./board-derived.ts.
 * Side effects (attach, create, kill...) belong to the UI; it reports their outcome back as
 * actions.
 */
import { chatOutcome, chatPage, chatViewport, scrollChat } from './board-chat.js';
import { keepMarks, promptStep } from './board-prompt.js';
import { sessionViewStep } from './board-session-views.js';
import { roomOf } from '../chat/chat.js';
import { diffStep, isDiffAction } from './diff-board.js';
import { selectedIndex, selectedSession, visibleSessions } from './board-derived.js';
import { dropLast, editOverlayField } from './board-fields.js';
import type { BoardAction, BoardSession, BoardState } from './board-types.js';
import { chooseStep, moveFocus, openNewForm, proposeBranch } from './new-form.js';

export function initialBoardState(init: Partial<BoardState> = {}): BoardState {
  return { selectedId: null, wantedId: null, filter: '', scroll: 0, listRows: 10, overlay: { kind: 'none' }, message: null, attention: [], marks: [], walkthroughHidden: false, usageShown: false, ...init };
}

// ---- keeping the selection and the window right ---------------------------

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

type List = readonly BoardSession[];

/**
 * After the list or the filter changed: keep the selected session if it is
 * still shown; else take the nearest one that was after it (then before it)
 * in the old list, so the cursor stays where the eye is. Then scroll so the
 * selection is on screen, and never past the end. `list`: the sessions
 * `next` is over; `was`: those `before` was over (the same, unless the
 * feed's list changed).
 */
function settle(next: BoardState, list: List, before: BoardState, was: List = list): BoardState {
  const vis = visibleSessions(next, list);
  const shown = new Set(vis.map((s) => s.id));
  let { selectedId, wantedId } = next;
  if (wantedId && shown.has(wantedId)) {
    selectedId = wantedId;
    wantedId = null;
  }
  // With nothing shown (a filter that matches nothing), the selection waits for the list to come back.
  if (vis.length > 0 && (selectedId === null || !shown.has(selectedId))) {
    const old = visibleSessions(before, was);
    const at = Math.max(0, old.findIndex((s) => s.id === before.selectedId));
    const after = old.slice(at).find((s) => shown.has(s.id));
    const earlier = old.slice(0, at).reverse().find((s) => shown.has(s.id));
    selectedId = (after ?? earlier ?? vis[0]!).id;
  }
  const index = vis.findIndex((s) => s.id === selectedId);
  // Moving onto a marked row is looking at it.
  const moved = selectedId !== before.selectedId && selectedId !== null && next.attention.includes(selectedId);
  const attention = moved ? next.attention.filter((id) => id !== selectedId) : next.attention;
  return { ...next, selectedId, wantedId, attention, scroll: scrollFor(next.scroll, index, vis.length, next.listRows) };
}

/** The marked rows, plus `ids` (already marked ones keep their place). */
function mark(state: BoardState, ids: readonly string[]): BoardState {
  const add = ids.filter((id, i) => !state.attention.includes(id) && ids.indexOf(id) === i);
  return add.length ? { ...state, attention: [...state.attention, ...add] } : state;
}

function unmark(state: BoardState, id: string): BoardState {
  return state.attention.includes(id) ? { ...state, attention: state.attention.filter((x) => x !== id) } : state;
}

function scrollFor(scroll: number, index: number, count: number, rows: number): number {
  const r = Math.max(1, rows);
  let s = scroll;
  if (index >= 0 && index < s) s = index;
  if (index >= s + r) s = index - r + 1;
  return clamp(s, 0, Math.max(0, count - r));
}

function moveTo(state: BoardState, list: List, index: number): BoardState {
  const vis = visibleSessions(state, list);
  if (vis.length === 0) return state;
  const i = clamp(index, 0, vis.length - 1);
  // The user moved: a session waiting to be selected no longer takes over.
  return settle({ ...state, selectedId: vis[i]!.id, wantedId: null }, list, state);
}

// ---- text fields -----------------------------------------------------------

function editField(state: BoardState, list: List, edit: (value: string) => string, typed?: string): BoardState {
  // The filter changes which rows show: the selection and window follow.
  if (state.overlay.kind === 'filter') return settle({ ...state, filter: edit(state.filter) }, list, state);
  return editOverlayField(state, edit, typed);
}

// ---- the reducer -----------------------------------------------------------

/**
 * The feed's list went from `before` to `sessions`: the selection stays on its session (or the
 * nearest), and a mark goes with its session.
 */
export function sessionsChanged(state: BoardState, before: List, sessions: List): BoardState {
  const ids = new Set(sessions.map((s) => s.id));
  const attention = state.attention.every((id) => ids.has(id)) ? state.attention : state.attention.filter((id) => ids.has(id));
  return settle(keepMarks({ ...state, attention }, sessions), sessions, state, before);
}

/** What `action` does to the state, over `list`: the feed's sessions as the board shows them. */
export function boardReducer(state: BoardState, action: BoardAction, list: List): BoardState {
  if (isDiffAction(action)) return diffStep(state, action);
  switch (action.type) {
    case 'attention':
      return mark(state, action.ids);
    case 'attached':
      return unmark(state, action.id);
    case 'viewport':
      return action.rows === state.listRows ? state : settle({ ...state, listRows: action.rows }, list, state);
    // With the chat open, moving means its history: down and the end are newer, up and the start older.
    case 'move':
      if (state.overlay.kind === 'chat') return scrollChat(state, -action.by);
      return moveTo(state, list, selectedIndex(state, list) + action.by);
    case 'page':
      if (state.overlay.kind === 'chat') return scrollChat(state, -action.by * chatPage(state.overlay));
      return moveTo(state, list, selectedIndex(state, list) + action.by * Math.max(1, state.listRows - 1));
    case 'jump':
      if (state.overlay.kind === 'chat') return scrollChat(state, action.to === 'first' ? Infinity : -Infinity);
      return moveTo(state, list, action.to === 'first' ? 0 : visibleSessions(state, list).length - 1);
    case 'select':
      return settle({ ...state, selectedId: action.id, wantedId: action.id }, list, state);
    case 'message':
      return { ...state, message: { text: action.text, error: action.error ?? false } };
    case 'clear':
      return settle({ ...state, filter: '', message: null }, list, state);
    case 'toggle-usage':
      return { ...state, usageShown: !state.usageShown };
    case 'hide-walkthrough':
      return state.walkthroughHidden ? state : { ...state, walkthroughHidden: true };
    case 'open-help':
      return { ...state, overlay: { kind: 'help' } };
    case 'open-filter':
      return { ...state, overlay: { kind: 'filter' }, message: null };
    case 'accept-filter':
      return { ...state, overlay: { kind: 'none' } };
    case 'open-new':
      return openNewForm(state, action.defaults, action.kinds);
    case 'new-choose':
      return state.overlay.kind === 'new' ? { ...state, overlay: chooseStep(state.overlay, action.by) } : state;
    case 'new-proposal':
      return state.overlay.kind === 'new' ? { ...state, overlay: proposeBranch(state.overlay, action.branch) } : state;
    case 'open-rename': {
      const s = selectedSession(state, list);
      if (!s) return state;
      return { ...state, overlay: { kind: 'rename', id: s.id, name: s.name, value: s.name, pending: false, error: null }, message: null };
    }
    case 'open-kill': {
      const s = selectedSession(state, list);
      if (!s) return state;
      if (s.status === 'exited') return { ...state, message: { text: `${s.name} has already exited; d removes it`, error: false } };
      return { ...state, overlay: { kind: 'confirm-kill', id: s.id, name: s.name }, message: null };
    }
    case 'close':
      // Closing the filter bar with Esc drops the filter; Enter (accept-filter) keeps it.
      if (state.overlay.kind === 'filter') return settle({ ...state, filter: '', overlay: { kind: 'none' } }, list, state);
      return { ...state, overlay: { kind: 'none' } };
    case 'type':
      return action.text ? editField(state, list, (v) => v + action.text, action.text) : state;
    case 'delete-back':
      return editField(state, list, dropLast);
    case 'clear-field':
      return editField(state, list, () => '');
    case 'focus-field':
      return state.overlay.kind === 'new' ? { ...state, overlay: moveFocus(state.overlay, action.by) } : state;
    case 'form-pending': {
      const o = state.overlay;
      return o.kind === 'new' || o.kind === 'rename' ? { ...state, overlay: { ...o, pending: true, error: null } } : state;
    }
    case 'form-failed': {
      const o = state.overlay;
      return o.kind === 'new' || o.kind === 'rename' ? { ...state, overlay: { ...o, pending: false, error: action.message } } : state;
    }
    case 'form-done': {
      const next: BoardState = { ...state, overlay: { kind: 'none' }, message: { text: action.message, error: false } };
      if (!action.selectId) return next;
      // A new session is selected even if the filter would hide it.
      return settle({ ...next, filter: '', selectedId: action.selectId, wantedId: action.selectId }, list, state);
    }
    case 'open-chat': {
      // The selected session's room; with none selected (an empty board), the default room.
      const s = selectedSession(state, list);
      const room = roomOf(s ?? {});
      return { ...state, overlay: { kind: 'chat', room, input: '', pending: false, scroll: 0, rows: 0, lines: 0 }, message: null };
    }
    case 'chat-viewport':
      return chatViewport(state, action.rows, action.lines);
    case 'chat-pending': {
      const o = state.overlay;
      return o.kind === 'chat' && !o.pending ? { ...state, overlay: { ...o, pending: true }, message: null } : state;
    }
    case 'chat-posted':
    case 'chat-failed':
      return chatOutcome(state, action);
    case 'toggle-mark':
    case 'open-prompt':
    case 'prompt-sending':
    case 'prompt-resending':
    case 'prompt-result':
      return promptStep(state, action, list);
    case 'open-explain':
    case 'explained':
    case 'explain-failed':
    case 'open-typing':
    case 'typing-ended':
      return sessionViewStep(state, action, list);
  }
}
