/**
 * How the board has Ink draw: src/ui/run-board.ts renders with these, and so do the UI tests
 * (test/ui/mount.tsx) and the benchmark (bench/board.mjs), so they measure what a user gets.
 */
import { FRAME_MS } from '../../client/feed/board-feed-options.js';

/**
 * Ink holds a draw back until this long (1000 / maxFps ms) after the last commit, and at most
 * that long after the first (its default, 30 fps, is 34 ms). The board's frame is the feed's:
 * it tells the board of changes at most once per FRAME_MS, and Ink's hold must be shorter than
 * that or it would hold every other frame back by a whole one. Half a frame still joins the
 * commits of one key or one resize.
 */
const INK_HOLD_MS = FRAME_MS / 2;

export const BOARD_INK_OPTIONS = {
  maxFps: 1000 / INK_HOLD_MS,
  // Not `incrementalRendering`: in Ink 6.8.0 it moves the cursor up one row too few when the
  // frame ends in a newline, which every frame shorter than the terminal does (src/ui/layout.ts:
  // a frame of the terminal's full height is cleared whole on every draw), so the board slid down.
} as const;
