import type { PreviewScreen } from '../client/feed/board-api.js';
import { cropRow } from './text-width.js';

/** The first screen row a pane `height` rows high shows: the top, scrolled down just enough to keep the cursor's row in view. */
export function cropTop(screen: Pick<PreviewScreen, 'lines' | 'cursorY'>, height: number): number {
  const { lines } = screen;
  const cursor = Math.max(0, Math.min(screen.cursorY, lines.length - 1));
  return Math.max(0, Math.min(cursor - height + 1, lines.length - height));
}

/**
 * The part of a session's screen that fits a pane of width x height: the left
 * columns (a row cut there ends in `…` at the pane's edge, no word shown in part), and the top rows, scrolled down just enough to keep the cursor's
 * row in view when the screen is taller than the pane (where a shell prompt
 * or an agent's input box is). Trailing blank rows are not kept.
 */
export function cropPreview(screen: Pick<PreviewScreen, 'lines' | 'cursorY'>, width: number, height: number): string[] {
  if (width <= 0 || height <= 0) return [];
  const top = cropTop(screen, height);
  // A row wider than the pane ends in an ellipsis at its edge, no word shown in part: the screen goes on.
  const rows = screen.lines.slice(top, top + height).map((l) => cropRow(l.trimEnd(), width));
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  return rows;
}
