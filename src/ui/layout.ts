/**
 * Where things go for a terminal of cols x rows: a header and a footer line,
 * and between them the session list with the preview either below it (narrow
 * terminals) or beside it (wide ones).
 */

/**
 * Ink draws one row short of the terminal: a frame of the terminal's full
 * height makes it clear the whole screen on every render, even an unchanged
 * one (and its incremental mode puts such a frame a row too low).
 */
export const INK_ROWS_SPARE = 1;
/** From this width on, the preview goes beside the list. */
export const SIDE_BY_SIDE_COLS = 140;

export interface BoardLayout {
  sideBySide: boolean;
  /** Rows and columns Ink draws in. */
  height: number;
  width: number;
  /** Rows between header and footer. */
  bodyRows: number;
  listRows: number;
  listWidth: number;
  /** The preview's screen lines (its title line not counted). */
  previewRows: number;
  previewWidth: number;
}

/** `bannerRows`: lines drawn between the header and the body (the lost sessions' banner). */
export function boardLayout(cols: number, rows: number, sessionCount: number, bannerRows = 0): BoardLayout {
  const width = Math.max(20, cols);
  const height = Math.max(6, rows - INK_ROWS_SPARE);
  const bodyRows = height - 2 - bannerRows;
  if (width >= SIDE_BY_SIDE_COLS) {
    const listWidth = Math.min(100, Math.max(60, Math.floor(width * 0.45)));
    return { sideBySide: true, height, width, bodyRows, listRows: bodyRows, listWidth, previewRows: bodyRows - 1, previewWidth: width - listWidth - 2 };
  }
  // Stacked: the list takes what it needs, up to 40% of the body; the preview the rest.
  const listRows = Math.max(1, Math.min(sessionCount, Math.floor(bodyRows * 0.4)));
  return { sideBySide: false, height, width, bodyRows, listRows, listWidth: width, previewRows: Math.max(0, bodyRows - listRows - 1), previewWidth: width };
}
