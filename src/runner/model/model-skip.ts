/**
 * Output the model can never show is not parsed: when to look for it in the model's backlog,
 * and whether xterm's state lets it go (the run itself is found by ModelBacklog.skipInert).
 */
import { parserInGroundState, scrollRegionOf } from '../../core/terminal/xterm-internals.js';
import type { Terminal } from '../../state/headless-terminal.js';
import type { ModelBacklog } from './model-backlog.js';

/**
 * While output is hot the backlog is scanned each time SKIP_SCAN_BYTES more arrived, and before
 * a parse flat out (output quiet, a snapshot waiting) each time SKIP_QUIET_BYTES more did: for
 * plain text followed by more lines than the history and the screen hold. That text goes
 * unparsed: the lines after it scroll all it wrote out of the history, so the model ends
 * exactly as if it had parsed it. While a hot stream's text is being skipped the model does not
 * parse its head at all (the next scan would drop it), so a `cat` of a big file costs the parse
 * of its last few thousand lines, not all of them (xterm parses about 27 MiB/s; the scan is
 * native searches, about 500 MiB/s). 4 MiB is several times what is kept (5,000 lines of
 * history at 200 columns are 1 MiB), so a scan drops most of what it reads; 512 KiB is about
 * 20 ms of parsing, worth a scan of about 1 ms.
 */
export const SKIP_SCAN_BYTES = 4 * 1024 * 1024;
export const SKIP_QUIET_BYTES = 512 * 1024;

export class ModelSkip {
  /** How much output had arrived at the last scan; whether it skipped anything. */
  private lookedAt = 0;
  private skipping = false;
  private bytes = 0;

  /** `scanBytes`: SKIP_SCAN_BYTES unless a test says otherwise (Infinity: never skip). */
  constructor(private readonly scanBytes = SKIP_SCAN_BYTES) {}

  /** Output bytes skipped so far. */
  get skipped(): number {
    return this.bytes;
  }

  /**
   * Call between batches (nothing inside xterm), `hot` when the parse would take its small
   * share. Scans when it is time, and skips the plain text at the head of the backlog that the
   * lines after it push out of the history, when xterm would parse that text in its ground
   * state with the whole screen scrolling: a scroll region would keep lines outside it, and a
   * sequence left open would take the text as its own. True when the head should wait, not be
   * parsed: the output is hot and its text was being skipped since the model last caught up.
   */
  maybe(term: Terminal, backlog: ModelBacklog, scrollback: number, hot: boolean): boolean {
    if (!Number.isFinite(this.scanBytes)) return false;
    const due = backlog.received - this.lookedAt >= (hot ? this.scanBytes : Math.min(this.scanBytes, SKIP_QUIET_BYTES));
    if (due && backlog.bytes >= Math.min(this.scanBytes, SKIP_QUIET_BYTES)) {
      this.lookedAt = backlog.received;
      const region = scrollRegionOf(term);
      let dropped = 0;
      if (parserInGroundState(term) && region.top === 0 && region.bottom === term.rows - 1) {
        // The lines that must follow: a screen to reach the last row, then the history and the screen to scroll out.
        dropped = backlog.skipInert(scrollback + 2 * term.rows + 2);
      }
      this.bytes += dropped;
      this.skipping = dropped > 0;
    }
    // Once the model has caught up the burst is over: later output is parsed as ever until a scan skips again.
    if (backlog.isEmpty) this.skipping = false;
    return hot && this.skipping;
  }
}
