/**
 * The board's state and its reducer, pure: the session list as the feed last
 * gave it, the filter, the selection (by id, so it stays put as sessions come
 * and go), the window of the list on screen, and whatever is open over the
 * list (help, filter bar, a form, a confirmation, the chat pane) with a one-line message,
 * and the rows that want the user's attention (a session that finished or
 * needs them, until the user looks: moves onto its row or attaches).
 * Side effects (attach, create, kill...) belong to the UI; it reports their
 * outcome back as actions.
 */
import { chatOutcome, chatPage, chatViewport, scrollChat } from './board-chat.js';
import { keepMarks, promptStep, type PromptAction, type PromptOverlay } from './board-prompt.js';
import { sessionViewStep, type ExplainOverlay, type SessionViewAction, type TypingOverlay } from './board-session-views.js';
import { roomOf } from '../chat/chat.js';
import { diffStep, isDiffAction, type DiffAction, type DiffOverlay } from './diff-board.js';
import type { HostRecord } from '../protocol/protocol.js';
import { selectedIndex, selectedSession, visibleSessions } from './board-derived.js';
import { dropLast, editOverlayField } from './board-fields.js';

export { keyModeOf, matchesFilter, selectedIndex, selectedSession, statusText, visibleSessions } from './board-derived.js';

export type BoardSession = Pick<HostRecord, 'id' | 'name' | 'room' | 'agent' | 'foregroundAgent' | 'command' | 'args' | 'status' | 'activity' | 'exitCode' | 'exitSignal'>;

/** The chat room a session belongs to (records from before rooms have none: `default`). */

export interface NewFields {
  name: string;
  command: string;
  cwd: string;
}
export const NEW_FIELDS: readonly (keyof NewFields)[] = ['name', 'command', 'cwd'];

export type Overlay =
  | { kind: 'none' }
  | { kind: 'help' }
  | { kind: 'filter' }
  | { kind: 'new'; fields: NewFields; focus: number; pending: boolean; error: string | null }
  | { kind: 'rename'; id: string; name: string; value: string; pending: boolean; error: string | null }
  | { kind: 'confirm-kill'; id: string; name: string }
  | ChatOverlay
  | PromptOverlay
  | ExplainOverlay
  | TypingOverlay
  | DiffOverlay;

/** The chat pane of a room: its input line and how far back its history is scrolled. */
export interface ChatOverlay {
  kind: 'chat';
  room: string;
  input: string;
  /** A post is on its way; the input waits. */
  pending: boolean;
  /** Wrapped lines the view is scrolled back from the newest; 0 follows new messages. */
  scroll: number;
  /** The log's rows on screen and its wrapped lines in all, as the pane last reported them. */
  rows: number;
  lines: number;
}

export interface Message {
  text: string;
  error: boolean;
}

export interface BoardState {
  sessions: readonly BoardSession[];
  selectedId: string | null;
  /** A session to select as soon as the feed shows it (one just created). */
  wantedId: string | null;
  filter: string;
  /** Index (in the visible list) of the first row on screen. */
  scroll: number;
  /** How many list rows the screen has room for. */
  listRows: number;
  overlay: Overlay;
  message: Message | null;
  /** Sessions whose row is marked (it rang: src/core/board/notify.ts) until the user looks, in the order they rang. */
  attention: readonly string[];
  /** Sessions the user marked (Space) for the prompt line, in the order marked. */
  marks: readonly string[];
}

export type BoardAction =
  | { type: 'sessions'; sessions: readonly BoardSession[] }
  | { type: 'viewport'; rows: number }
  | { type: 'move'; by: number }
  | { type: 'page'; by: 1 | -1 }
  | { type: 'jump'; to: 'first' | 'last' }
  | { type: 'select'; id: string }
  | { type: 'attention'; ids: readonly string[] }
  | { type: 'attached'; id: string }
  | { type: 'message'; text: string; error?: boolean }
  | { type: 'clear' }
  | { type: 'open-help' }
  | { type: 'open-filter' }
  | { type: 'accept-filter' }
  | { type: 'open-new'; defaults: NewFields }
  | { type: 'open-rename' }
  | { type: 'open-kill' }
  | { type: 'close' }
  | { type: 'type'; text: string }
  | { type: 'delete-back' }
  | { type: 'clear-field' }
  | { type: 'focus-field'; by: 1 | -1 }
  | { type: 'form-pending' }
  | { type: 'form-failed'; message: string }
  | { type: 'form-done'; message: string; selectId?: string }
  | { type: 'open-chat' }
  | { type: 'chat-viewport'; rows: number; lines: number }
  | { type: 'chat-pending' }
  | { type: 'chat-posted'; message?: string }
  | { type: 'chat-failed'; message: string }
  | PromptAction
  | SessionViewAction
  | DiffAction;

export function initialBoardState(init: Partial<BoardState> = {}): BoardState {
  return { sessions: [], selectedId: null, wantedId: null, filter: '', scroll: 0, listRows: 10, overlay: { kind: 'none' }, message: null, attention: [], marks: [], ...init };
}

// ---- keeping the selection and the window right ---------------------------

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/**
 * After the list or the filter changed: keep the selected session if it is
 * still shown; else take the nearest one that was after it (then before it)
 * in the old list, so the cursor stays where the eye is. Then scroll so the
 * selection is on screen, and never past the end.
 */
function settle(next: BoardState, before: BoardState): BoardState {
  const vis = visibleSessions(next);
  const shown = new Set(vis.map((s) => s.id));
  let { selectedId, wantedId } = next;
  if (wantedId && shown.has(wantedId)) {
    selectedId = wantedId;
    wantedId = null;
  }
  // With nothing shown (a filter that matches nothing), the selection waits for the list to come back.
  if (vis.length > 0 && (selectedId === null || !shown.has(selectedId))) {
    const old = visibleSessions(before);
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

function moveTo(state: BoardState, index: number): BoardState {
  const vis = visibleSessions(state);
  if (vis.length === 0) return state;
  const i = clamp(index, 0, vis.length - 1);
  // The user moved: a session waiting to be selected no longer takes over.
  return settle({ ...state, selectedId: vis[i]!.id, wantedId: null }, state);
}

// ---- text fields -----------------------------------------------------------

function editField(state: BoardState, edit: (value: string) => string): BoardState {
  // The filter changes which rows show: the selection and window follow.
  if (state.overlay.kind === 'filter') return settle({ ...state, filter: edit(state.filter) }, state);
  return editOverlayField(state, edit);
}

// ---- the reducer -----------------------------------------------------------

export function boardReducer(state: BoardState, action: BoardAction): BoardState {
  if (isDiffAction(action)) return diffStep(state, action);
  switch (action.type) {
    case 'sessions': {
      // A mark goes with its session.
      const ids = new Set(action.sessions.map((s) => s.id));
      const attention = state.attention.every((id) => ids.has(id)) ? state.attention : state.attention.filter((id) => ids.has(id));
      return settle(keepMarks({ ...state, sessions: action.sessions, attention }), state);
    }
    case 'attention':
      return mark(state, action.ids);
    case 'attached':
      return unmark(state, action.id);
    case 'viewport':
      return action.rows === state.listRows ? state : settle({ ...state, listRows: action.rows }, state);
    // With the chat open, moving means its history: down and the end are newer, up and the start older.
    case 'move':
      if (state.overlay.kind === 'chat') return scrollChat(state, -action.by);
      return moveTo(state, selectedIndex(state) + action.by);
    case 'page':
      if (state.overlay.kind === 'chat') return scrollChat(state, -action.by * chatPage(state.overlay));
      return moveTo(state, selectedIndex(state) + action.by * Math.max(1, state.listRows - 1));
    case 'jump':
      if (state.overlay.kind === 'chat') return scrollChat(state, action.to === 'first' ? Infinity : -Infinity);
      return moveTo(state, action.to === 'first' ? 0 : visibleSessions(state).length - 1);
    case 'select':
      return settle({ ...state, selectedId: action.id, wantedId: action.id }, state);
    case 'message':
      return { ...state, message: { text: action.text, error: action.error ?? false } };
    case 'clear':
      return settle({ ...state, filter: '', message: null }, state);
    case 'open-help':
      return { ...state, overlay: { kind: 'help' } };
    case 'open-filter':
      return { ...state, overlay: { kind: 'filter' }, message: null };
    case 'accept-filter':
      return { ...state, overlay: { kind: 'none' } };
    case 'open-new':
      return { ...state, overlay: { kind: 'new', fields: action.defaults, focus: 0, pending: false, error: null }, message: null };
    case 'open-rename': {
      const s = selectedSession(state);
      if (!s) return state;
      return { ...state, overlay: { kind: 'rename', id: s.id, name: s.name, value: s.name, pending: false, error: null }, message: null };
    }
    case 'open-kill': {
      const s = selectedSession(state);
      if (!s) return state;
      if (s.status === 'exited') return { ...state, message: { text: `${s.name} has already exited; d removes it`, error: false } };
      return { ...state, overlay: { kind: 'confirm-kill', id: s.id, name: s.name }, message: null };
    }
    case 'close':
      // Closing the filter bar with Esc drops the filter; Enter (accept-filter) keeps it.
      if (state.overlay.kind === 'filter') return settle({ ...state, filter: '', overlay: { kind: 'none' } }, state);
      return { ...state, overlay: { kind: 'none' } };
    case 'type':
      return action.text ? editField(state, (v) => v + action.text) : state;
    case 'delete-back':
      return editField(state, dropLast);
    case 'clear-field':
      return editField(state, () => '');
    case 'focus-field': {
      const o = state.overlay;
      if (o.kind !== 'new') return state;
      const n = NEW_FIELDS.length;
      return { ...state, overlay: { ...o, focus: (o.focus + action.by + n) % n } };
    }
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
      return settle({ ...next, filter: '', selectedId: action.selectId, wantedId: action.selectId }, state);
    }
    case 'open-chat': {
      // The selected session's room; with none selected (an empty board), the default room.
      const s = selectedSession(state);
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
    case 'prompt-result':
      return promptStep(state, action);
    case 'open-explain':
    case 'explained':
    case 'explain-failed':
    case 'open-typing':
    case 'typing-ended':
      return sessionViewStep(state, action);
  }
}
