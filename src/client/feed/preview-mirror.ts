/** The board's preview of one session: its screen mirrored into a private headless terminal. */
import fs from 'node:fs';
import type { Time } from '../../core/clock.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import { newTerminal, type Terminal } from '../../state/headless-terminal.js';
import { finalScreenFile, socketPath } from '../../state/paths.js';
import type { PreviewScreen } from './board-api.js';
import { RunnerConnection } from '../link/connection.js';
import { PREVIEW_RETRY } from '../link/retry-schedule.js';
import { RunnerLink } from '../link/runner-link.js';
import { describeError } from './describe-error.js';

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
  /** The line to the runner while live (PREVIEW_RETRY: a few tries, then the feed shows the final screen if it is gone). */
  private readonly link: RunnerLink<RunnerConnection>;
  private readonly store = new DisposableStore();
  /** Waiting for the snapshot asked for by the last subscribe_terminal. */
  private awaitingSnapshot = false;
  private mode: 'idle' | 'live' | 'final' = 'idle';
  /** Characters written to the terminal and not parsed yet. */
  private unparsed = 0;
  /** Bumped whenever the final screen is asked for or we dispose: a final screen read before is dropped. */
  private epoch = 0;
  private disposed = false;

  constructor(
    readonly home: string,
    readonly id: string,
    time: Time,
    /** How to reach the runner (what the try holds goes in `owner`): its local socket, unless told (the board's --host: over ssh). */
    open: (owner: DisposableStore) => Promise<RunnerConnection> = (owner) =>
      RunnerConnection.open(socketPath(home, id), { client: 'board-preview', readOnly: true, scheduler: time.scheduler, owner }),
    /** Its final screen: final-screen.ans, unless told (over ssh: `peek --ansi` there). */
    private readonly readFinal: () => Promise<string> = () => fs.promises.readFile(finalScreenFile(home, id), 'utf8'),
  ) {
    // Refused or silent: tried again a few times; the feed shows the final screen if it is gone.
    this.link = this.store.add(new RunnerLink({ connect: open, schedule: PREVIEW_RETRY, scheduler: time.scheduler, retryWhen: () => this.mode === 'live' }));
    this.store.add(this.link.onOpen(({ conn }) => this.guard('an open', () => this.subscribe(conn))));
    this.store.add(this.link.onMessage((m) => this.guard('a message', () => this.onMessage(m))));
    this.store.add(this.link.onError((e) => this.errors.fire(`preview of ${this.id}: the runner sent a bad frame (${e.message})`)));
    this.store.add(
      this.link.onStateChange((s) => {
        if (s.kind !== 'open') this.awaitingSnapshot = false; // a snapshot asked on a connection gone never comes
      }),
    );
  }

  get isFinal(): boolean {
    return this.mode === 'final';
  }

  /** Follow the running session. Harmless when already following it; restarts after a give-up. */
  live(): void {
    if (this.disposed || this.mode === 'final') return;
    this.mode = 'live';
    this.link.rearm();
    this.link.start();
  }

  /**
   * The session's size changed: ask for a fresh snapshot at the new size
   * (on the same connection; the runner stops the live stream until then).
   */
  fit(cols: number, rows: number): void {
    const conn = this.link.current;
    if (this.mode !== 'live' || !conn || this.awaitingSnapshot || !this.term) return;
    if (this.term.cols === cols && this.term.rows === rows) return;
    this.subscribe(conn);
  }

  /** The session is over: show its final screen (kept from the live mirror when there is none on disk). */
  showFinal(cols: number, rows: number): void {
    if (this.disposed || this.mode === 'final') return;
    this.mode = 'final';
    const epoch = ++this.epoch;
    this.link.stop();
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
    this.store.dispose();
    this.term?.dispose();
    this.term = null;
    this.changes.dispose();
    this.errors.dispose();
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
    if (this.unparsed > PREVIEW_PAUSE_BYTES) this.link.current?.socket.pause();
    term.write(data, () => {
      this.unparsed -= data.length;
      const socket = this.link.current?.socket;
      if (this.unparsed < PREVIEW_RESUME_BYTES && socket?.isPaused()) socket.resume();
      if (!this.disposed && term === this.term) this.changed();
    });
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

