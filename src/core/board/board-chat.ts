/**
 * The board's chat pane, as reducer steps: scrolling, following new lines,
 * and what a post's outcome does to the input line. Used by boardReducer.
 */
import type { BoardAction, BoardState, ChatOverlay } from './board-types.js';

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

const maxChatScroll = (o: ChatOverlay) => Math.max(0, o.lines - o.rows);

/** Scrolls the open chat `by` lines back (older; negative: newer), within its history. */
export function scrollChat(state: BoardState, by: number): BoardState {
  const o = state.overlay;
  if (o.kind !== 'chat') return state;
  const scroll = clamp(o.scroll + by, 0, maxChatScroll(o));
  return scroll === o.scroll ? state : { ...state, overlay: { ...o, scroll } };
}

/** A page of the chat: its rows, less one kept for context. */
export const chatPage = (o: ChatOverlay) => Math.max(1, o.rows - 1);

/**
 * The pane's size or its history changed. At the bottom the view follows new
 * lines; scrolled back, it stays on what it shows as lines arrive below.
 */
export function chatViewport(state: BoardState, rows: number, lines: number): BoardState {
  const o = state.overlay;
  if (o.kind !== 'chat' || (o.rows === rows && o.lines === lines)) return state;
  const grown = o.scroll > 0 ? Math.max(0, lines - o.lines) : 0;
  const next: ChatOverlay = { ...o, rows, lines };
  return { ...state, overlay: { ...next, scroll: clamp(o.scroll + grown, 0, maxChatScroll(next)) } };
}

export function chatOutcome(state: BoardState, action: Extract<BoardAction, { type: 'chat-posted' | 'chat-failed' }>): BoardState {
  const o = state.overlay;
  const message = action.type === 'chat-failed' ? { text: action.message, error: true } : action.message ? { text: action.message, error: false } : null;
  if (o.kind !== 'chat') return { ...state, message: message ?? state.message };
  // Posted: the line is cleared and the view goes back to the newest, where the post shows. Failed: the line stays for another try.
  const overlay: ChatOverlay = action.type === 'chat-posted' ? { ...o, input: '', pending: false, scroll: 0 } : { ...o, pending: false };
  return { ...state, overlay, message };
}

