/**
 * One session's line to its runner for the board feed (src/client/board-feed.ts): status pushes
 * over a read-only connection, reconnected with backoff, and a watch on the session's folder while
 * there is no connection.
 */
import fs from 'node:fs';
import type { Scheduler } from '../core/clock.js';
import type { TermSize } from '../core/protocol/size.js';
import { DisposableStore, MutableDisposable, toDisposable, type Disposable } from '../core/lifetime.js';
import { sessionDir, socketPath } from '../state/paths.js';
import { RunnerConnection } from './link/connection.js';

/** What a StatusLink tells its feed. The feed guards each one (an error it throws is reported, not lost). */
export interface StatusLinkOwner {
  /** A host record from the runner (its hello, then every `status` push), unchecked. */
  onHost(host: unknown): void;
  /** The subscription is up. */
  onOpen(): void;
  /**
   * The runner could not be reached, or the connection closed: re-read
   * host.json and say whether the session should still have a runner
   * (then we try again, a few times).
   */
  onLost(): boolean;
  /** host.json changed while no connection was open. */
  onFolderChange(): void;
  /** Something only a developer needs to know (a bad frame from the runner): for the board log. */
  onProblem(detail: string): void;
}

export interface StatusLinkDeps {
  home: string;
  id: string;
  /** Delays between attempts to reach a runner that refused (then wait for news: rearm). */
  retryMs: readonly number[];
  scheduler: Scheduler;
  owner: StatusLinkOwner;
  /** The watcher's own terminal size, offered to the runner with the subscription (protocol.md, `subscribe_status`). */
  view?: () => TermSize | null;
}

/**
 * One session's line to its runner for the board: a read-only connection
 * subscribed to status pushes, reconnected a few times with backoff when it
 * cannot be had, and while there is none, a watch on the session's folder so
 * a change to host.json (an exited session renamed, a runner writing
 * `running`) is still seen at once. Holds no timer while idle.
 */
export class StatusLink implements Disposable {
  private conn: RunnerConnection | null = null;
  private connecting = false;
  /** Failed attempts since the last success or rearm; past the last delay we wait for news. */
  private tries = 0;
  private readonly retry = new MutableDisposable();
  /** The current connection and its listeners. */
  private readonly connection = new MutableDisposable<DisposableStore>();
  private readonly watcher = new MutableDisposable();
  private disposed = false;
  private lastTryFailed = false;

  constructor(private readonly d: StatusLinkDeps) {}

  get open(): boolean {
    return this.conn !== null && !this.conn.closed;
  }

  /** The last try to reach the runner failed (refused, or no hello in time), and none has worked since. */
  get unanswered(): boolean {
    return this.lastTryFailed;
  }

  /** Connect, unless connected, on the way, waiting to retry, or given up (see rearm). */
  connect(): void {
    if (this.disposed || this.conn || this.connecting || this.retry.value || this.tries > 0) return;
    this.attempt();
  }

  /** The watcher's terminal changed size: the runner hears of it (a subscription again, with the new view). */
  offerView(): void {
    if (this.conn && !this.conn.closed) this.subscribe(this.conn);
  }

  /** News (host.json changed, the sweep): a link that gave up may try again. */
  rearm(): void {
    if (!this.connecting && !this.retry.value && !this.conn) this.tries = 0;
  }

  /** Watch the session's folder (only wanted while no connection is open). */
  watch(want: boolean): void {
    if (this.disposed) return;
    if (!want) {
      this.watcher.clear();
      return;
    }
    if (this.watcher.value) return;
    try {
      const w = fs.watch(sessionDir(this.d.home, this.d.id), (_event, file) => {
        if (file && file !== 'host.json') return; // runner.log, temporary files
        this.d.owner.onFolderChange();
      });
      const held = toDisposable(() => w.close());
      w.on('error', () => {
        // A broken watch: the feed's sweep looks at the session anyway, and watches again.
        if (this.watcher.value === held) this.watcher.clear();
        else w.close();
      });
      this.watcher.value = held;
    } catch {
      this.d.owner.onFolderChange(); // the folder went away: the feed's rescan drops the session
    }
  }

  dispose(): void {
    this.disposed = true;
    this.retry.dispose();
    this.connection.dispose();
    this.conn = null;
    this.watcher.dispose();
  }

  private attempt(): void {
    this.connecting = true;
    RunnerConnection.open(socketPath(this.d.home, this.d.id), { client: 'board', readOnly: true, scheduler: this.d.scheduler }).then(
      (conn) => {
        this.connecting = false;
        if (this.disposed) {
          conn.dispose();
          return;
        }
        this.conn = conn;
        this.tries = 0;
        this.lastTryFailed = false;
        const store = (this.connection.value = new DisposableStore());
        store.add(conn);
        store.add(
          conn.onMessage((m) => {
            if (m.type === 'status') this.d.owner.onHost(m.host);
          }),
        );
        store.add(conn.onError((e) => this.d.owner.onProblem(`session ${this.d.id}: the runner sent a bad frame (${e.message})`)));
        store.add(
          conn.onClose(() => {
            if (this.conn !== conn || this.disposed) return;
            this.conn = null;
            this.tries = 0;
            this.failed(); // exited (host.json says so), died (lost), or a zombie for a moment: retry, re-reading
          }),
        );
        this.subscribe(conn);
        this.watch(false);
        this.d.owner.onHost(conn.hello.host);
        this.d.owner.onOpen();
      },
      () => {
        // Refused or silent: not an error, the session may be starting or gone; failed() retries or waits for news.
        this.connecting = false;
        this.lastTryFailed = true;
        if (!this.disposed) this.failed();
      },
    );
  }

  private subscribe(conn: RunnerConnection): void {
    const view = this.d.view?.();
    conn.send(view ? { type: 'subscribe_status', view: { cols: view.cols, rows: view.rows } } : { type: 'subscribe_status' });
  }

  private failed(): void {
    const again = this.d.owner.onLost();
    const delay = this.d.retryMs[this.tries++];
    if (again && delay !== undefined && !this.disposed) {
      this.retry.value = this.d.scheduler.setTimeout(() => {
        this.retry.clear();
        if (!this.disposed && !this.conn && !this.connecting) this.attempt();
      }, delay);
    }
    this.watch(true);
  }
}
