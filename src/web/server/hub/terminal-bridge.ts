/**
 * One page's view of one session's terminal (the page's `open`): a connection of the hub's own to
 * the session's runner, read-only unless the device may type, subscribed to the terminal stream
 * with no size (a page never sizes a session by looking at it: only its `resize`, which the user
 * asks for) and no history. What the runner sends becomes the page's frames, in order: its
 * snapshot one `frame` (a clear, then the exact screen), then `out` for each chunk; the exit one
 * `exit`. A drop of the runner's line is tried again (RunnerLink, ATTACH_RECONNECT), and each new
 * connection starts with a fresh `frame`.
 *
 * A slow page: when the page's socket is congested (./page-wire.ts) the bridge stops reading its
 * runner's socket, so the runner, not this process, holds the backlog, drops us from its live
 * stream past its bound and sends a fresh snapshot when we read again (the preview mirror does the
 * same, src/client/feed/preview-mirror.ts). The other pages' bridges have their own connections,
 * so one slow page never stalls another.
 */
import type { Scheduler } from '../../../core/clock.js';
import { DisposableStore, type Disposable } from '../../../core/lifetime.js';
import type { ExitMsg, RunnerMessage } from '../../../core/protocol/runner-messages.js';
import type { RunnerConnection } from '../../../client/link/connection.js';
import { ATTACH_RECONNECT } from '../../../client/link/retry-schedule.js';
import { RunnerLink } from '../../../client/link/runner-link.js';
import type { SessionView } from '../../../state/host-store.js';
import type { PageWire } from './page-wire.js';

/** What a `frame` starts with: the page's terminal is cleared, cursor home, before the snapshot draws. */
export const FRAME_CLEAR = '\x1b[H\x1b[2J';
/** Keys typed before the first connection is up wait for it, up to this many characters (a paste's worth). */
const MAX_QUEUED_KEYS = 256 * 1024;

/** An `out` frame holds at most this much: a bound on the join and on one frame's size, not on latency (a read is flushed when it ends). */
const MAX_OUT_FRAME_CHARS = 256 * 1024;

export interface BridgeDeps {
  session: SessionView;
  /** A read-only device's bridge never types and never resizes (the runner refuses it too). */
  readOnly: boolean;
  connect(s: SessionView, o: { readOnly: boolean }): Promise<RunnerConnection>;
  scheduler: Scheduler;
  wire: PageWire;
}

export class TerminalBridge implements Disposable {
  private readonly store = new DisposableStore();
  private readonly link: RunnerLink<RunnerConnection>;
  readonly id: string;
  /** The snapshot being received: its size and the data so far. */
  private pending: { cols: number; rows: number; data: string[] } | null = null;
  /** The size of the page's terminal as we last told it (a frame or a size). */
  private shown: { cols: number; rows: number } | null = null;
  /** The session's size as the feed last said it: only a change of it is news (the feed may lag a snapshot). */
  private listed: { cols: number; rows: number };
  /** A subscribe is out and its snapshot not here yet. */
  private awaitingSnapshot = false;
  /** Keys typed before the first connection: sent when it opens. */
  private early: string[] | null = [];
  private earlyChars = 0;
  /** The exit was said (or the link gave up): nothing more comes. */
  private ended = false;
  /**
   * Output of the runner's current read, sent as one `out` frame when the read is done
   * (RunnerConnection.onBatchEnd): a `cat` arrives as a few large frames rather than thousands of
   * small ones, each of which the page would parse and hand to xterm on its own; a keystroke's echo
   * is one read, so it waits for nothing.
   */
  private out: string[] = [];
  private outChars = 0;

  constructor(private readonly d: BridgeDeps) {
    this.id = d.session.id;
    this.listed = { cols: d.session.cols, rows: d.session.rows };
    this.link = this.store.add(
      new RunnerLink({ connect: () => d.connect(d.session, { readOnly: d.readOnly }), schedule: ATTACH_RECONNECT, scheduler: d.scheduler, retryWhen: () => !this.ended }),
    );
    this.store.add(
      this.link.onOpen(({ conn, held }) => {
        held.add(conn.onBatchEnd(() => this.flushOut()));
        this.opened(conn);
      }),
    );
    this.store.add(this.link.onMessage((m) => this.message(m)));
    this.store.add(
      this.link.onStateChange((s) => {
        if (s.kind !== 'open') {
          this.awaitingSnapshot = false; // a snapshot asked on a connection gone never comes
          this.pending = null;
          this.out = []; // a connection gone: the next one's frame replaces what it showed
          this.outChars = 0;
        }
        if (s.kind === 'given-up' && !this.ended) {
          this.ended = true;
          this.early = null;
          this.d.wire.send({ t: 'exit', id: this.id, line: `the session's runner cannot be reached: ${errorLine(s.last.error)}` });
        }
      }),
    );
    // A drained page reads its runner again: the runner sends what it held, or a fresh snapshot.
    this.store.add(d.wire.onDrain(() => this.link.current?.socket.resume()));
    this.link.start();
  }

  /** Keys to the PTY, in order; false when they cannot go (the line is down, or the session ended). */
  keys(data: string): boolean {
    const conn = this.link.current;
    if (conn) {
      conn.send({ type: 'input', data });
      return true;
    }
    if (this.early === null || this.earlyChars + data.length > MAX_QUEUED_KEYS) return false;
    this.early.push(data);
    this.earlyChars += data.length;
    return true;
  }

  /** The user asked to fit the session to the page; false when the line is down. */
  resize(cols: number, rows: number): boolean {
    const conn = this.link.current;
    if (!conn) return false;
    conn.send({ type: 'resize', cols, rows });
    return true;
  }

  /**
   * The session's size, as the feed says it now: when it changed under the page's terminal, the
   * page hears the new size and gets a fresh exact frame at it (what the program drew at the old
   * size is not worth reflowing).
   */
  sessionSize(cols: number, rows: number): void {
    if (this.listed.cols === cols && this.listed.rows === rows) return;
    this.listed = { cols, rows };
    const conn = this.link.current;
    if (!conn || this.awaitingSnapshot || !this.shown || this.ended) return;
    if (this.shown.cols === cols && this.shown.rows === rows) return; // the frame was already drawn at it
    this.shown = { cols, rows };
    this.d.wire.send({ t: 'size', id: this.id, cols, rows });
    this.subscribe(conn);
  }

  /** The page closed the terminal: the runner hears `detach` first, so a size this page gave goes back at once. */
  close(): void {
    this.link.current?.send({ type: 'detach' });
    this.link.close();
    this.dispose();
  }

  dispose(): void {
    this.ended = true;
    this.store.dispose();
  }

  private opened(conn: RunnerConnection): void {
    this.subscribe(conn);
    const early = this.early ?? [];
    this.early = null; // after the first connection, keys typed while the line is down are refused, never replayed
    this.earlyChars = 0;
    for (const data of early) conn.send({ type: 'input', data });
  }

  private subscribe(conn: RunnerConnection): void {
    this.awaitingSnapshot = true;
    conn.send({ type: 'subscribe_terminal', scrollback: 0 });
  }

  private message(m: RunnerMessage): void {
    if (m.type !== 'output') this.flushOut(); // what came before it goes first
    switch (m.type) {
      case 'snapshot_begin':
        this.pending = { cols: m.cols, rows: m.rows, data: [FRAME_CLEAR] };
        return;
      case 'snapshot_screen':
        this.pending?.data.push(m.data);
        return;
      case 'snapshot_end': {
        const p = this.pending;
        this.pending = null;
        this.awaitingSnapshot = false;
        if (!p) return;
        this.shown = { cols: p.cols, rows: p.rows };
        this.forward({ t: 'frame', id: this.id, cols: p.cols, rows: p.rows, data: p.data.join('') });
        return;
      }
      case 'output':
        // Output before a re-subscribe's snapshot is the old size's: still the screen's, until the frame replaces it.
        if (!this.shown) return;
        this.out.push(m.data);
        this.outChars += m.data.length;
        if (this.outChars >= MAX_OUT_FRAME_CHARS) this.flushOut();
        return;
      case 'exit':
        this.ended = true;
        this.d.wire.send({ t: 'exit', id: this.id, line: exitLine(m) });
        return;
      default:
        return;
    }
  }

  private flushOut(): void {
    if (this.out.length === 0) return;
    const data = this.out.length === 1 ? this.out[0]! : this.out.join('');
    this.out = [];
    this.outChars = 0;
    this.forward({ t: 'out', id: this.id, data });
  }

  /** To the page; a congested page stops our reading of the runner until it drains. */
  private forward(msg: Parameters<PageWire['send']>[0]): void {
    this.d.wire.send(msg);
    if (this.d.wire.congested) this.link.current?.socket.pause();
  }
}

function exitLine(m: ExitMsg): string {
  if (m.killed) return `killed (${m.killed})`;
  return m.signal ? `exited (killed by ${m.signal})` : `exited (exit code ${m.code ?? 'unknown'})`;
}

function errorLine(e: unknown): string {
  if (e === null || e === undefined) return 'the connection closed';
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'failed';
}
