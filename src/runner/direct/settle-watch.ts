/**
 * What a direct client can no longer see for itself, since the runner writes its terminal: when
 * the output it got shows the kind's settle marker (the client's jiggle chain ends on it,
 * `direct_settled`). Looked for from the stream going live until the chain would have given up.
 */
import { BACKOFF_MS, createJiggleRetryState, feedOutput, type JiggleRetryState } from '../../core/terminal/jiggle-retry.js';

/** How long after the stream goes live the settle marker is looked for: the client's jiggle chain gives up after its backoff steps. */
const SETTLE_WATCH_MS = BACKOFF_MS.reduce((a, b) => a + b, 0) + 1000;

export class SettleWatch {
  private w: { state: JiggleRetryState; carry: string; until: number } | null = null;

  /** Looking for these markers from `now` (none: nothing to look for). */
  start(markers: readonly string[], now: number): void {
    this.w = markers.length ? { state: createJiggleRetryState(markers), carry: '', until: now + SETTLE_WATCH_MS } : null;
  }

  get watching(): boolean {
    return this.w !== null;
  }

  /** Output the terminal got: true once, when it shows the marker (the watch then ends). */
  seen(data: string, now: number): boolean {
    const w = this.w;
    if (!w) return false;
    if (now > w.until) {
      this.w = null;
      return false;
    }
    const r = feedOutput(w.state, data, w.carry);
    w.state = r.state;
    w.carry = r.carry;
    if (!r.clearFound) return false;
    this.w = null;
    return true;
  }
}
