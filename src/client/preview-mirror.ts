/** The board's preview of one session: its screen mirrored into a private headless terminal. */
import fs from 'node:fs';
import type { Scheduler } from '../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../core/lifetime.js';
import type { RunnerMessage } from '../core/protocol/runner-messages.js';
import { newTerminal, type Terminal } from '../state/headless-terminal.js';
import { finalScreenFile, socketPath } from '../state/paths.js';
import type { PreviewScreen } from './board-api.js';
import { RunnerConnection } from './link/connection.js';
import { describeError } from './describe-error.js';

/** How long the mirror waits between attempts to reach a runner that refused it. */
export const PREVIEW_RETRY_MS: readonly number[] = [100, 300, 1000];

/**
 * Output our terminal has not parsed yet beyond this: stop reading the socket,
 * so the runner takes us for a slow client (drops us from the live stream,
 * sends a fresh snapshot when we read again) instead of our memory filling up.
 */
export const PREVIEW_PAUSE_BYTES = 1024 * 1024;
export const PREVIEW_RESUME_BYTES = 128 * 1024;

/**
 * One session's screen, mirrored into a private headless terminal for the
 * board's preview pane. Live: a read-only connection subscribed to the
 * terminal stream (screen only, no history), the snapshot written first and
 * every output chunk after it. Final: the session's final-screen.ans.
 *
 * Never throws out of a callback: what goes wrong in one (a bad frame, a
 * bug) is an `onError` event, for the board log. `onChange` fires (often)
 * after the terminal took in new bytes, and the owner coalesces.
 */
export class PreviewMirror implements Disposable {
  private readonly changes = new Emitter<void>();
  private readonly errors = new Emitter<string>();
  /** The screen changed. */
  readonly onChange: Event<void> = this.changes.event;
  /** Something went wrong that only a developer needs to know (for the board log); the mirror carries on. */
  readonly onError: Event<string> = this.errors.event;
  private term: Terminal | null = null;
  private conn: RunnerConnection | null = null;
  /** The current connection and its listeners. */
  private readonly connection = new MutableDisposable<DisposableStore>();
  private connecting = false;
  private readonly retryTimer = new MutableDisposable();
  private tries = 0;
  /** Waiting for the snapshot asked for by the last subscribe_terminal. */
  private awaitingSnapshot = false;
  private mode: 'idle' | 'live' | 'final' = 'idle';
  /** Characters written to the terminal and not parsed yet. */
  private unparsed = 0;
  /** Bumped whenever the mode changes or we dispose: async results from before are dropped. */
  private epoch = 0;
  private disposed = false;

  constructor(
    readonly home: string,
    readonly id: string,
    private readonly scheduler: Scheduler,
    /** How to reach the runner: its local socket, unless told (the board's --host: over ssh). */
    private readonly open: () => Promise<RunnerConnection> = () =>
      RunnerConnection.open(socketPath(home, id), { client: 'board-preview', readOnly: true, scheduler }),
    /** Its final screen: final-screen.ans, unless told (over ssh: `peek --ansi` there). */
    private readonly readFinal: () => Promise<string> = () => fs.promises.readFile(finalScreenFile(home, id), 'utf8'),
  ) {}

  get isFinal(): boolean {
    return this.mode === 'final';
  }

  /** Follow the running session. Harmless when already following it; restarts after a give-up. */
  live(): void {
    if (this.disposed || this.mode === 'final') return;
    this.mode = 'live';
    if (this.conn || this.connecting || this.retryTimer.value) return;
    this.tries = 0;
    this.connect();
  }

  /**
   * The session's size changed: ask for a fresh snapshot at the new size
   * (on the same connection; the runner stops the live stream until then).
   */
  fit(cols: number, rows: number): void {
    if (this.mode !== 'live' || !this.conn || this.awaitingSnapshot || !this.term) return;
    if (this.term.cols === cols && this.term.rows === rows) return;
    this.subscribe(this.conn);
  }

  /** The session is over: show its final screen (kept from the live mirror when there is none on disk). */
  showFinal(cols: number, rows: number): void {
    if (this.disposed || this.mode === 'final') return;
    this.mode = 'final';
    const epoch = ++this.epoch;
    this.dropConnection();
    this.readFinal().then(
      (data) => {
        if (this.disposed || epoch !== this.epoch) return;
        this.write(this.fresh(cols, rows), data);
      },
      () => {
        // A lost session has no final screen: keep what the live mirror showed last.
        if (!this.disposed && epoch === this.epoch) this.changed();
      },
    );
  }

  /** The screen as it is now, or null before anything arrived. */
  screen(): PreviewScreen | null {
    const term = this.term;
    if (!term) return null;
    const buf = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < term.rows; y++) lines.push((buf.getLine(buf.baseY + y)?.translateToString(true) ?? '').trimEnd()); // printed spaces too
    return { id: this.id, cols: term.cols, rows: term.rows, lines, cursorX: buf.cursorX, cursorY: buf.cursorY, final: this.mode === 'final' };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.epoch++;
    this.dropConnection();
    this.term?.dispose();
    this.term = null;
    this.changes.dispose();
    this.errors.dispose();
  }

  private connect(): void {
    const epoch = this.epoch;
    this.connecting = true;
    this.open().then(
      (conn) => {
        this.connecting = false;
        if (this.disposed || epoch !== this.epoch || this.mode !== 'live') {
          conn.dispose();
          return;
        }
        this.conn = conn;
        this.tries = 0;
        const store = (this.connection.value = new DisposableStore());
        store.add(conn);
        store.add(conn.onMessage((m) => this.guard('a message', () => this.onMessage(m))));
        store.add(conn.onError((e) => this.errors.fire(`preview of ${this.id}: the runner sent a bad frame (${e.message})`)));
        store.add(
          conn.onClose(() =>
            this.guard('a close', () => {
              if (this.conn !== conn) return;
              this.conn = null;
              this.awaitingSnapshot = false;
              this.retry(); // the feed switches to the final screen if the runner is gone for good
            }),
          ),
        );
        this.subscribe(conn);
      },
      () => {
        // Refused or silent: retry() tries again a few times; the feed shows the final screen if it is gone.
        this.connecting = false;
        if (!this.disposed && epoch === this.epoch) this.retry();
      },
    );
  }

  private retry(): void {
    if (this.disposed || this.mode !== 'live' || this.tries >= PREVIEW_RETRY_MS.length) return;
    const delay = PREVIEW_RETRY_MS[this.tries++]!;
    this.retryTimer.value = this.scheduler.setTimeout(() => {
      this.retryTimer.clear();
      this.guard('a retry', () => {
        if (!this.disposed && this.mode === 'live' && !this.conn && !this.connecting) this.connect();
      });
    }, delay);
  }

  private subscribe(conn: RunnerConnection): void {
    this.awaitingSnapshot = true;
    conn.send({ type: 'subscribe_terminal', scrollback: 0 });
  }

  private onMessage(m: RunnerMessage): void {
    switch (m.type) {
      case 'snapshot_begin':
        this.fresh(m.cols, m.rows);
        return;
      case 'snapshot_screen':
        if (this.term) this.write(this.term, m.data);
        return;
      case 'snapshot_end':
        this.awaitingSnapshot = false;
        return;
      case 'output':
        // Output before the snapshot of a re-subscribe belongs to the old size: still worth showing.
        if (this.term) this.write(this.term, m.data);
        return;
      default:
        return;
    }
  }

  /** A new blank terminal of this size replaces the old one. */
  private fresh(cols: number, rows: number): Terminal {
    const old = this.term;
    this.term = newTerminal({ cols: Math.max(2, cols), rows: Math.max(1, rows), scrollback: 0, allowProposedApi: true });
    old?.dispose(); // its writes still queued finish harmlessly; their callbacks see it is not ours any more
    return this.term;
  }

  private write(term: Terminal, data: string): void {
    this.unparsed += data.length;
    if (this.unparsed > PREVIEW_PAUSE_BYTES) this.conn?.socket.pause();
    term.write(data, () => {
      this.unparsed -= data.length;
      if (this.unparsed < PREVIEW_RESUME_BYTES && this.conn?.socket.isPaused()) this.conn.socket.resume();
      if (!this.disposed && term === this.term) this.changed();
    });
  }

  private dropConnection(): void {
    this.retryTimer.clear();
    this.connection.clear();
    this.conn = null;
    this.awaitingSnapshot = false;
  }

  /** Tells the owner the screen changed; a listener that throws is reported, never thrown into xterm's callback. */
  private changed(): void {
    this.guard('a change listener', () => this.changes.fire());
  }

  /** A broken runner or a bug in handling `what` must not break the board: it becomes an onError event. */
  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.errors.fire(`preview of ${this.id}: ${what} threw: ${describeError(err)}`);
    }
  }
}

