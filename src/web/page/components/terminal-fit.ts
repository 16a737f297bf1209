/**
 * The session's terminal scaled to the page's width: the font, not the session, changes size (a
 * phone never shrinks a session by itself; "fit" asks for that, and only when the user taps it).
 */
import type { Terminal } from '@xterm/xterm';

/** Below this the text cannot be read even zoomed; the terminal scrolls sideways instead. */
export const MIN_FONT_PX = 5;
/** Above this a small session (80x24 on a wide screen) would look absurd. */
export const MAX_FONT_PX = 16;
/** The font a "fit" asks for: the session takes as many cells as fit at this size. */
export const FIT_FONT_PX = { touch: 11, desk: 14 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Sets the font so the terminal's cols fill `width` pixels: one guess from the ratio the font has
 * now, measured off the screen xterm drew (its cell width is rounded to device pixels), then one
 * correction.
 */
export function scaleToWidth(term: Terminal, width: number): void {
  const screen = term.element?.querySelector<HTMLElement>('.xterm-screen');
  if (!screen || width <= 0) return;
  for (let pass = 0; pass < 2; pass++) {
    const drawn = screen.getBoundingClientRect().width;
    if (drawn <= 0) return;
    const font = term.options.fontSize ?? 13;
    const next = clamp(Math.floor(((font * width) / drawn) * 4) / 4, MIN_FONT_PX, MAX_FONT_PX);
    if (Math.abs(next - font) < 0.25 && drawn <= width) return;
    term.options.fontSize = drawn > width && next === font ? next - 0.25 : next;
  }
}
