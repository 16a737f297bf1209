/**
 * What the board's state says without changing it: a row's state word, the
 * filter, the rows it lets through, the selection, and what the keyboard
 * talks to. Pure, like the reducer (src/core/board/board-state.ts) it belongs to.
 */
import type { BoardSession, BoardState } from './board-types.js';
import type { KeyMode } from './keybindings.js';
import { commandWords } from '../command-shown.js';
import { exitKind, sessionState, stateNote, withStateNote } from '../session-state.js';

/**
 * The state word a row shows (src/core/session-state.ts); an exited session says how it ended:
 * `killed` when a user asked for it (its signal is in `ls` and the kill's line), else its signal or
 * code; `idle · disk full` when its runner cannot write its record.
 */
export function statusText(s: BoardSession): string {
  const state = sessionState(s);
  if (state !== 'exited') return withStateNote(state, s);
  if (exitKind(s) === 'killed') return withStateNote('killed', s);
  return withStateNote(s.exitSignal ?? `exited ${s.exitCode ?? '?'}`, s);
}

/** What a row's narrow state column says: statusText, or only the note (`disk full`) when there is one; the row's glyph still shows the state. */
export function rowStatusText(s: BoardSession): string {
  return stateNote(s, true) ?? statusText(s);
}

/**
 * Every word of the filter is in what the user knows of the row (any case): its name, agent
 * (and the one running in a shell's foreground), state word, host, and the command: a shell
 * session's command line as it was typed (`npm run dev`), else only the program's name. The
 * arguments agent-board wrote for a kind (a demo agent's `--peer bob`, an agent's wiring) are
 * nobody's words: `/bob` must find bob, not alice who answers him.
 */
export function matchesFilter(s: BoardSession, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [s.name, s.agent, s.foregroundAgent ?? '', ...commandWords(s), statusText(s), s.host ?? ''].join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** The rows of `sessions` (the feed's list) the filter lets through, in order. */
export function visibleSessions<S extends BoardSession>(state: BoardState, sessions: readonly S[]): readonly S[] {
  return state.filter ? sessions.filter((s) => matchesFilter(s, state.filter)) : sessions;
}

export function selectedIndex(state: BoardState, sessions: readonly BoardSession[]): number {
  return visibleSessions(state, sessions).findIndex((s) => s.id === state.selectedId);
}

/** The selected row, when it is shown (the filter may hide it). */
export function selectedSession<S extends BoardSession>(state: BoardState, sessions: readonly S[]): S | null {
  return visibleSessions(state, sessions).find((s) => s.id === state.selectedId) ?? null;
}

export function keyModeOf(state: BoardState): KeyMode {
  switch (state.overlay.kind) {
    case 'none': return 'list';
    case 'help': return 'help';
    case 'filter': return 'filter';
    case 'confirm-kill': return 'confirm';
    case 'chat': return 'chat';
    case 'prompt': return state.overlay.results.length > 0 ? 'results' : 'prompt';
    case 'explain': return 'explain';
    case 'typing': return 'type';
    case 'diff': return state.overlay.draft ? 'diff-comment' : 'diff';
    default: return 'form';
  }
}
