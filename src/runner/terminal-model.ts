/** The runner's headless mirror of the session's screen, fed in order with the output and resizes. */
import type { Clock, Scheduler } from '../core/clock.js';
import { MutableDisposable } from '../core/lifetime.js';
import {
  INITIAL_MODES,
  onCursorShape,
  onDecPrivateMode,
  onKittyKeyboard,
  onModifyKeys,
  onReset,
  onTitle,
  type TrackedModes,
} from '../core/terminal/terminal-modes.js';
import { historyLinesOf, screenFrameOf } from './snapshot-frame.js';
import { parserInGroundState } from '../core/terminal/xterm-internals.js';
import { newTerminal, type Terminal } from '../state/headless-terminal.js';

/**
 * Flow control for the parser only (xterm's write() throws when about 50 MB
 * are pending). Above the high mark the runner pauses the PTY; below the low
 * mark it resumes. A slow client never pauses anything.
 */
export const PARSER_HIGH_WATER = 1024 * 1024;
export const PARSER_LOW_WATER = 128 * 1024;
/**
 * A program that starts a synchronized update (or an escape sequence) and
 * never ends it must not block snapshots forever; after this long we take the
 * frame anyway.
 */
export const SYNC_OUTPUT_MAX_WAIT_MS = 1000;
/** History is serialized in slices this big, so no slice blocks the loop for long. */
export const HISTORY_SLICE_LINES = 500;

export interface ModelOptions {
  cols: number;
  rows: number;
  scrollback: number;
  /** Called with true when the PTY should pause, false when it may resume. */
  onPressure?: (paused: boolean) => void;
  /** The settle deadline (SYNC_OUTPUT_MAX_WAIT_MS) is measured and waited on these. */
  clock: Clock;
  scheduler: Scheduler;
}

type Settled = () => void;
type Op = { kind: 'data'; data: string; nextSeq: number } | { kind: 'resize'; cols: number; rows: number };

/**
 * The runner's mirror of the session's screen: @xterm/headless fed with every
 * output chunk, plus the modes xterm does not keep (src/core/terminal/terminal-modes.ts).
 *
 * A gate in front of xterm keeps at most one batch inside xterm's own write
 * queue. So at every write callback the model is exactly at a chunk boundary
 * (`parsedSeq`), nothing else is queued inside xterm, and a snapshot or a
 * freeze taken there is exact. Throughput is unchanged: xterm keeps draining
 * in the same loop when the callback hands it the next batch.
 */
export class TerminalModel {
  readonly term: Terminal;
  private readonly tracker: ModeTracker;
  private queue: Op[] = [];
  private inFlight = false;
  private pending = 0;
  private paused = false;
  private frozen = false;
  private waiters: Settled[] = [];
  private readonly openTimer = new MutableDisposable();
  private openSince: number | null = null;
  private parsed: number;

  constructor(private readonly opts: ModelOptions & { firstSeq?: number }) {
    this.term = newTerminal({
      cols: opts.cols,
      rows: opts.rows,
      scrollback: opts.scrollback,
      allowProposedApi: true,
    });
    this.parsed = opts.firstSeq ?? 0;
    this.tracker = trackModes(this.term);
  }

  get trackedModes(): TrackedModes {
    return this.tracker.modes;
  }

  /** Every output chunk before this seq is in the model. */
  get parsedSeq(): number {
    return this.parsed;
  }

  /** Feed the output chunk that ends just before `nextSeq`. */
  write(data: string, nextSeq: number): void {
    this.pending += data.length;
    this.updatePressure();
    this.queue.push({ kind: 'data', data, nextSeq });
    this.pump();
  }

  /** Resize in order with the output before it. */
  resize(cols: number, rows: number): void {
    this.queue.push({ kind: 'resize', cols, rows });
    this.pump();
  }

  /**
   * Runs `fn` at the next chunk boundary where no synchronized update is open
   * and the parser is not inside an escape sequence (or either has been so
   * for longer than SYNC_OUTPUT_MAX_WAIT_MS). A frame taken there is whole,
   * and the live output after it starts on a sequence boundary.
   */
  whenSettled(fn: Settled): void {
    this.waiters.push(fn);
    if (!this.inFlight) this.serveWaiters();
  }

  /**
   * Stops feeding the model, so history can be read in slices while line
   * numbers stay put. Output keeps arriving and waits in the gate. Call it at
   * a boundary (inside a whenSettled callback).
   */
  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    this.pump();
  }

  private pump(): void {
    while (!this.inFlight && !this.frozen && this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.kind === 'resize') {
        this.queue.shift();
        if (head.cols !== this.term.cols || head.rows !== this.term.rows) this.term.resize(head.cols, head.rows);
        continue;
      }
      let data = '';
      let nextSeq = this.parsed;
      while (this.queue[0]?.kind === 'data') {
        const op = this.queue.shift() as Extract<Op, { kind: 'data' }>;
        data += op.data;
        nextSeq = op.nextSeq;
      }
      this.inFlight = true;
      this.term.write(data, () => {
        this.inFlight = false;
        this.parsed = nextSeq;
        this.pending -= data.length;
        this.updatePressure();
        this.serveWaiters();
        this.pump();
      });
    }
  }

  private serveWaiters(): void {
    if (this.waiters.length === 0 || this.inFlight) return;
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
    const ready = this.waiters;
    this.waiters = [];
    for (const fn of ready) fn();
  }

  /**
   * Screen, cursor and every mode (see screenFrameOf). Rebuilds the screen
   * when written into a terminal of the same size whose cursor is home on a
   * blank screen, or right after the history lines (which it then scrolls up
   * into scrollback). Call only when settled.
   */
  screenFrame(): string {
    return screenFrameOf(this.term, this.tracker.modes);
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
    this.term.dispose();
  }

  private updatePressure(): void {
    const want = this.paused ? this.pending > PARSER_LOW_WATER : this.pending > PARSER_HIGH_WATER;
    if (want !== this.paused) {
      this.paused = want;
      this.opts.onPressure?.(want);
    }
  }
}

/** The live value of the modes xterm does not keep, followed on one terminal. */
export interface ModeTracker {
  readonly modes: TrackedModes;
}

/**
 * Registers parser hooks on `term` that follow the modes xterm does not keep.
 * The hooks return false, so xterm still handles every sequence itself. The
 * snapshot property test attaches the same tracking to the terminal it
 * rebuilds from a frame, so both sides are judged alike.
 */
export function trackModes(term: Terminal): ModeTracker {
  const tracker = { modes: INITIAL_MODES };
  const p = term.parser;
  const nums = (params: (number | number[])[]) => params.map((x) => (Array.isArray(x) ? (x[0] ?? 0) : x));
  const track = (fn: (m: TrackedModes) => TrackedModes) => {
    tracker.modes = fn(tracker.modes);
    return false; // let xterm handle the sequence too
  };
  p.registerCsiHandler({ prefix: '?', final: 'h' }, (ps) => track((m) => onDecPrivateMode(m, nums(ps), true)));
  p.registerCsiHandler({ prefix: '?', final: 'l' }, (ps) => track((m) => onDecPrivateMode(m, nums(ps), false)));
  p.registerCsiHandler({ intermediates: ' ', final: 'q' }, (ps) => track((m) => onCursorShape(m, nums(ps))));
  p.registerCsiHandler({ prefix: '>', final: 'u' }, (ps) => track((m) => onKittyKeyboard(m, '>', nums(ps))));
  p.registerCsiHandler({ prefix: '<', final: 'u' }, (ps) => track((m) => onKittyKeyboard(m, '<', nums(ps))));
  p.registerCsiHandler({ prefix: '=', final: 'u' }, (ps) => track((m) => onKittyKeyboard(m, '=', nums(ps))));
  p.registerCsiHandler({ prefix: '>', final: 'm' }, (ps) => track((m) => onModifyKeys(m, 'm', nums(ps))));
  p.registerCsiHandler({ prefix: '>', final: 'n' }, (ps) => track((m) => onModifyKeys(m, 'n', nums(ps))));
  p.registerCsiHandler({ intermediates: '!', final: 'p' }, () => track((m) => onReset(m, false)));
  p.registerEscHandler({ final: 'c' }, () => track((m) => onReset(m, true)));
  p.registerOscHandler(0, (data) => track((m) => onTitle(m, data)));
  p.registerOscHandler(2, (data) => track((m) => onTitle(m, data)));
  return tracker;
}
