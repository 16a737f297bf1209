import type { BoardSession } from '../core/board-state.js';

/** How a session's status looks in the list: a glyph and its colour (Ink/chalk colour names). */
export interface StatusStyle {
  glyph: string;
  color: string;
}

export function statusStyle(s: Pick<BoardSession, 'status' | 'exitCode' | 'exitSignal'>): StatusStyle {
  switch (s.status) {
    case 'running':
      return { glyph: '●', color: 'green' };
    case 'starting':
      return { glyph: '◌', color: 'yellow' };
    case 'lost':
      return { glyph: '?', color: 'magenta' };
    case 'exited':
      return s.exitCode === 0 && !s.exitSignal ? { glyph: '✓', color: 'gray' } : { glyph: '✗', color: 'red' };
  }
}
