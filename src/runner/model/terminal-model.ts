/** The runner's headless mirror of the session's screen, fed in order with the output and resizes. */
import type { Clock, Scheduler } from '../../core/clock.js';
import { Emitter, MutableDisposable, type Event } from '../../core/lifetime.js';
import type { TrackedModes } from '../../core/terminal/terminal-modes.js';
import { parserInGroundState } from '../../core/terminal/xterm-internals.js';
import { newTerminal, type Terminal } from '../../state/headless-terminal.js';
import { BACKLOG_HIGH_BYTES, BACKLOG_LOW_BYTES, ModelBacklog, type BacklogBounds, type ModelData } from './model-backlog.js';
import { ModelSkip } from './model-skip.js';
import { trackModes, type ModeTracker } from './mode-tracker.js';
import { historyLinesOf, screenFrameOf } from './snapshot-frame.js';

export { trackModes, type ModeTracker } from './mode-tracker.js';

/**
 * A program that starts a synchronized update (or an escape sequence) and
 * never ends it must not block snapshots forever; after this long we take the
 * frame anyway.
 */
export const SYNC_OUTPUT_MAX_WAIT_MS = 1000;
/** History is serialized in slices this big, so no slice blocks the loop for long. */
export const HISTORY_SLICE_LINES = 500;
/**
 * How the parse shares the runner's one thread with the output. Output is hot while chunks keep
 * coming, the last less than HOT_WINDOW_MS ago (a `cat` or a build log gives a 4 KiB chunk
 * every fraction of a millisecond). While it is hot and more waits, the parse takes
 * HOT_BATCH_BYTES (1 to 2 ms of xterm's time) and then rests HOT_REST_MS: about a tenth of the
 * thread, the rest goes to reading the PTY and writing the clients, and the model falls behind
 * in its backlog (model-backlog.ts). When the output goes quiet, the PTY is paused by the
 * backlog's bound, or a snapshot waits, it parses flat out in batches of BATCH_BYTES (about
 * 10 ms each), and xterm yields to I/O between them. Reading the screen for status waits for
 * the parse (whenParsed), so a lag costs nothing but time to what is read off the screen.
 */
export const HOT_WINDOW_MS = 10;
export const HOT_BATCH_BYTES = 32 * 1024;
export const HOT_REST_MS = 12;
export const BATCH_BYTES = 256 * 1024;

export interface ModelOptions {
  cols: number;
  rows: number;
  scrollback: number;
  /** The settle deadline, the hot window and the rests are measured and waited on these. */
  clock: Clock;
  scheduler: Scheduler;
  /** The backlog's bound; BACKLOG_HIGH_BYTES / BACKLOG_LOW_BYTES unless a test says otherwise. */
  backlog?: BacklogBounds;
  /** When to look for output to skip (model-skip.ts SKIP_SCAN_BYTES) unless a test says otherwise; Infinity: never. */
  skipScanBytes?: number;
}

type Waiter = { target: number; fn: () => void };

/**
 * The runner's mirror of the session's screen: @xterm/headless fed with every
 * output chunk, plus the modes xterm does not keep (src/core/terminal/terminal-modes.ts).
 *
 * A gate in front of xterm keeps at most one batch inside xterm's own write
 * queue. So at every write callback the model is exactly at a chunk boundary
 * (`parsedSeq`), nothing else is queued inside xterm, and a snapshot or a
 * freeze taken there is exact. The output never waits for the model: it may
 * lag behind in its backlog while the output is hot (see HOT_WINDOW_MS), and
 * everything that reads it waits until it has taken in what came before the
 * question (whenSettled, whenParsed).
 */
export class TerminalModel {
  readonly term: Terminal;
  private readonly tracker: ModeTracker;
  private readonly backlog: ModelBacklog;
  private inFlight = false;
  private frozen = false;
  private settleWaiters: Waiter[] = [];
  private parseWaiters: Waiter[] = [];
  private readonly openTimer = new MutableDisposable();
  private readonly restTimer = new MutableDisposable();
  private openSince: number | null = null;
  private parsed: number;
  private written: number;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private behind = false;
  private readonly skip: ModelSkip;
  private readonly caughtUp = new Emitter<void>();

  /** The model took in all the output after it had fallen behind (a burst): its screen is current again. */
  readonly onCaughtUp: Event<void> = this.caughtUp.event;
  private readonly pressure = new Emitter<boolean>();
  /** True when the PTY should pause (the backlog passed its bound), false when it may resume. */
  readonly onPressure: Event<boolean> = this.pressure.event;
  private readonly titleChanged = new Emitter<void>();
  /** The program set another title (OSC 0 or 2), fired as the parser reads it: the screen may be mid-chunk (whenParsed waits for the chunk's end). */
  readonly onTitleChange: Event<void> = this.titleChanged.event;

  constructor(private readonly opts: ModelOptions & { firstSeq?: number }) {
    this.term = newTerminal({
      cols: opts.cols,
      rows: opts.rows,
      scrollback: opts.scrollback,
      allowProposedApi: true,
    });
    this.parsed = this.written = opts.firstSeq ?? 0;
    this.tracker = trackModes(this.term, () => this.titleChanged.fire());
    this.backlog = new ModelBacklog(opts.backlog ?? { high: BACKLOG_HIGH_BYTES, low: BACKLOG_LOW_BYTES }, (paused) => this.pressure.fire(paused));
    this.skip = new ModelSkip(opts.skipScanBytes);
  }

  /** Output bytes not parsed because the model could never show them (model-skip.ts). */
  get skipped(): number {
    return this.skip.skipped;
  }

  get trackedModes(): TrackedModes {
    return this.tracker.modes;
  }

  /** Every output chunk before this seq is in the model. */
  get parsedSeq(): number {
    return this.parsed;
  }

  /** Output written but not parsed yet (bytes; UTF-16 units for text). */
  get backlogBytes(): number {
    return this.backlog.bytes;
  }

  /**
   * Feed the output chunk that ends just before `nextSeq`: its bytes when they are valid UTF-8
   * (xterm parses bytes faster than strings, and they decode to the chunk's text exactly), else
   * its text. Either ends on a character boundary, so xterm's decoders hold nothing between chunks.
   */
  write(data: ModelData, nextSeq: number): void {
    this.lastWriteAt = this.opts.clock.now();
    this.written = nextSeq;
    this.backlog.pushData(data, nextSeq);
    this.pump();
  }

  /** Resize in order with the output before it. */
  resize(cols: number, rows: number): void {
    this.backlog.pushResize(cols, rows);
    this.pump();
  }

  /**
   * Runs `fn` once the model has taken in every chunk written before this
   * call, at the first chunk boundary after that where no synchronized update
   * is open and the parser is not inside an escape sequence (or either has
   * been so for longer than SYNC_OUTPUT_MAX_WAIT_MS). A frame taken there is
   * whole, and the live output after it starts on a sequence boundary. While
   * one waits, the model parses flat out.
   */
  whenSettled(fn: () => void): void {
    this.settleWaiters.push({ target: this.written, fn });
    if (this.restTimer.value) {
      this.restTimer.clear(); // someone waits: no more resting
      this.pump();
    }
    if (!this.inFlight) this.serveWaiters();
  }

  /**
   * Runs `fn` once the model has taken in every chunk written before this
   * call (at once when it has): what reads the screen for status waits here,
   * without hurrying the parse.
   */
  whenParsed(fn: () => void): void {
    if (this.parsed >= this.written) {
      fn();
      return;
    }
    this.parseWaiters.push({ target: this.written, fn });
  }

  /**
   * Stops feeding the model, so history can be read in slices while line
   * numbers stay put. Output keeps arriving and waits in the backlog. Call it
   * at a boundary (inside a whenSettled callback).
   */
  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    this.pump();
  }

  /** Output is hot, the PTY runs and nobody waits for a snapshot: the parse takes its small share. */
  private throttled(): boolean {
    if (this.backlog.paused || this.settleWaiters.length > 0) return false;
    return this.opts.clock.now() - this.lastWriteAt < HOT_WINDOW_MS;
  }

  private pump(): void {
    while (!this.inFlight && !this.frozen && !this.restTimer.value) {
      const hot = this.throttled();
      if (this.skip.maybe(this.term, this.backlog, this.term.options.scrollback ?? this.opts.scrollback, hot)) {
        this.rest(); // plain text the next scan would drop: not parsed meanwhile (model-skip.ts)
        return;
      }
      const op = this.backlog.take(hot ? HOT_BATCH_BYTES : BATCH_BYTES);
      if (!op) return;
      if (op.kind === 'resize') {
        if (op.cols !== this.term.cols || op.rows !== this.term.rows) this.term.resize(op.cols, op.rows);
        continue;
      }
      this.inFlight = true;
      const { data, nextSeq } = op;
      this.term.write(data, () => this.batchParsed(data.length, nextSeq));
    }
  }

  private batchParsed(size: number, nextSeq: number): void {
    this.inFlight = false;
    this.parsed = nextSeq;
    this.backlog.parsed(size);
    this.serveWaiters();
    if (!this.backlog.isEmpty && this.throttled()) {
      this.rest(); // hot: the thread goes to the output for a while; the backlog waits
      return;
    }
    this.pump();
    if (this.behind && !this.inFlight && this.backlog.isEmpty) {
      this.behind = false;
      this.caughtUp.fire();
    }
  }

  private rest(): void {
    this.behind = true;
    this.restTimer.value = this.opts.scheduler.setTimeout(() => {
      this.restTimer.clear();
      this.pump();
    }, HOT_REST_MS);
  }

  private serveWaiters(): void {
    if (this.parseWaiters.length > 0) {
      const due = this.parseWaiters.filter((w) => w.target <= this.parsed);
      if (due.length > 0) {
        this.parseWaiters = this.parseWaiters.filter((w) => w.target > this.parsed);
        for (const w of due) w.fn();
      }
    }
    if (this.inFlight || !this.settleWaiters.some((w) => w.target <= this.parsed)) return;
    if (this.term.modes.synchronizedOutputMode || !parserInGroundState(this.term)) {
      const now = this.opts.clock.now();
      this.openSince ??= now;
      const left = SYNC_OUTPUT_MAX_WAIT_MS - (now - this.openSince);
      if (left > 0) {
        // Look again at the next boundary, or at the deadline if the program stalls.
        if (!this.openTimer.value) {
          this.openTimer.value = this.opts.scheduler.setTimeout(() => {
            this.openTimer.clear();
            if (!this.inFlight) this.serveWaiters();
          }, left);
        }
        return;
      }
    }
    this.openSince = null;
    this.openTimer.clear();
    const ready = this.settleWaiters.filter((w) => w.target <= this.parsed);
    this.settleWaiters = this.settleWaiters.filter((w) => w.target > this.parsed);
    for (const w of ready) w.fn();
  }

  /**
   * Screen, cursor and every mode (see screenFrameOf). Rebuilds the screen
   * when written into a terminal of the same size whose cursor is home on a
   * blank screen, or right after the history lines (which it then scrolls up
   * into scrollback). Call only when settled.
   */
  screenFrame(overlay?: string): string {
    return screenFrameOf(this.term, this.tracker.modes, overlay);
  }

  /** Lines of history above the screen in the normal buffer. */
  get historyLength(): number {
    return this.term.buffer.normal.baseY;
  }

  /** History lines [start, end) of the normal buffer, each ended by CRLF (see historyLinesOf). */
  historySlice(start: number, end: number): string {
    return historyLinesOf(this.term, start, end);
  }

  dispose(): void {
    this.openTimer.dispose();
    this.restTimer.dispose();
    this.caughtUp.dispose();
    this.pressure.dispose();
    this.titleChanged.dispose();
    this.term.dispose();
  }
}
