/** How a session's state looks on the page: the board's glyphs and colours (src/ui/status-style.ts). */
import type { SessionState } from '../../core/session-state.js';

export const STATE_GLYPH: Record<SessionState, string> = {
  waiting: '◆',
  busy: '◐',
  idle: '●',
  starting: '◌',
  limited: '◷',
  exited: '■',
  lost: '?',
};

/** A row of a host that cannot be reached: its state is not known now. */
export const STALE_GLYPH = '?';
