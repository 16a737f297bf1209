import type { BoardSession } from '../core/board/board-types.js';
import { exitKind, sessionState, type ExitKind } from '../core/session-state.js';

/** How a session's state looks in the list: a glyph and its colour (Ink/chalk colour names). */
export interface StatusStyle {
  glyph: string;
  color: string;
  /** Drawn bold: a session that needs the user stands out most. */
  bold?: boolean;
}

/** An exited session: ended well (grey tick), killed as asked (a grey stop square: nothing went wrong), failed (red cross). */
const EXITED: Readonly<Record<ExitKind, StatusStyle>> = {
  ok: { glyph: '✓', color: 'gray' },
  killed: { glyph: '■', color: 'gray' },
  failed: { glyph: '✗', color: 'red' },
};

/**
 * waiting stands out most (bold bright magenta), busy is a yellow half
 * circle, idle a green dot, starting a yellow ring, limited (a usage limit: it waits for a
 * reset, not for the user) a cyan clock; an exited session is grey
 * when it ended well or was killed as asked, and a red cross when not; lost is red.
 */
export function statusStyle(s: Pick<BoardSession, 'status' | 'activity' | 'limited' | 'exitCode' | 'exitSignal' | 'killed'>): StatusStyle {
  switch (sessionState(s)) {
    case 'waiting':
      return { glyph: '◆', color: 'magentaBright', bold: true };
    case 'busy':
      return { glyph: '◐', color: 'yellow' };
    case 'idle':
      return { glyph: '●', color: 'green' };
    case 'starting':
      return { glyph: '◌', color: 'yellow' };
    case 'limited':
      return { glyph: '◷', color: 'cyan' };
    case 'lost':
      return { glyph: '?', color: 'red' };
    case 'exited':
      return EXITED[exitKind(s)];
  }
}

/** The rows of a host that cannot be reached (the board's --host), as the header counts them: their state is not known now. */
export const NO_LINK_STYLE: StatusStyle = { glyph: '?', color: 'red' };

/** The mark of a row that wants the user's attention (tmux's bell flag), and its colour. */
export const ATTENTION_MARK = '!';
export const ATTENTION_COLOR = 'magentaBright';
