/**
 * The attach "jiggle retry" chain: after attaching, make the
 * program redraw, and ask again with backoff until its output shows it really
 * did a full redraw (the settle marker). A snapshot is exact, but a program
 * that keeps its own idea of the screen (a TUI diffing against what it last
 * drew) must be made to repaint once the client is really watching, or a
 * stale cursor or half-drawn line can stay until its next change.
 *
 * Pure and immutable; the attach component owns the timer.
 */

/** Waits before each retry; the chain gives up after the last one. */
export const BACKOFF_MS: readonly number[] = Object.freeze([120, 500, 1500, 3000]);
export const MAX_RETRIES = BACKOFF_MS.length;

/** The full clear pi-tui and most full-screen programs start a full render with. */
export const FULL_CLEAR = '\x1b[2J';

export interface JiggleRetryState {
  /** Retries done so far (0 = only the initial jiggle). */
  readonly retryIndex: number;
  readonly clearDetected: boolean;
  readonly stopped: boolean;
  /** Output that marks a full redraw; any one of them settles the chain. */
  readonly markers: readonly string[];
}

export function createJiggleRetryState(markers: readonly string[] = [FULL_CLEAR]): JiggleRetryState {
  return { retryIndex: 0, clearDetected: false, stopped: false, markers };
}

export interface FeedResult {
  state: JiggleRetryState;
  /** The tail that could be the start of a marker cut by the chunk edge. */
  carry: string;
  clearFound: boolean;
}

/** Looks for a settle marker in `carry + data`. */
export function feedOutput(state: JiggleRetryState, data: string, carry: string): FeedResult {
  const combined = carry + data;
  const clearFound = hasSettleMarker(combined, state.markers);
  return {
    state: clearFound ? { ...state, clearDetected: true } : state,
    carry: clearFound ? '' : tailCarry(combined, state.markers),
    clearFound,
  };
}

/** Milliseconds until the next retry, or null when the chain is over. */
export function nextRetryDelay(state: JiggleRetryState): number | null {
  if (state.stopped || state.clearDetected || state.retryIndex >= MAX_RETRIES) return null;
  return BACKOFF_MS[state.retryIndex] ?? null;
}

export function advanceRetry(state: JiggleRetryState): JiggleRetryState {
  return { ...state, retryIndex: state.retryIndex + 1 };
}

export function stopRetry(state: JiggleRetryState): JiggleRetryState {
  return { ...state, stopped: true };
}

export function hasSettleMarker(data: string, markers: readonly string[]): boolean {
  return markers.some((m) => data.includes(m));
}

/**
 * Keeps what could be the start of a marker cut by the chunk edge: the longest
 * tail that is the beginning of some marker (markers such as Claude's
 * `ESC[H ESC[2K` hold two escapes, so "from the last ESC" is not enough);
 * failing that, from the last ESC in the final (longest marker - 1) characters
 * (a sequence cut after its ESC could still be a marker's start).
 */
function tailCarry(data: string, markers: readonly string[]): string {
  const longest = Math.max(0, ...markers.map((m) => m.length - 1));
  const tail = longest > 0 ? data.slice(-longest) : '';
  for (let i = 0; i < tail.length; i++) {
    const suffix = tail.slice(i);
    if (markers.some((m) => m.length > suffix.length && m.startsWith(suffix))) return suffix;
  }
  const esc = tail.lastIndexOf('\x1b');
  return esc >= 0 ? tail.slice(esc) : '';
}
