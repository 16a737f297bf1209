import fs from 'node:fs';
import { sessionDir, socketPath } from '../state/paths.js';
import { RunnerConnection } from './connection.js';

/** What a StatusLink needs from its feed. None of these may throw (the feed guards them). */
export interface StatusLinkOwner {
  /** Timers the feed tracks, so its dispose clears them all. */
  after(ms: number, fn: () => void): unknown;
  cancel(handle: unknown): void;
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
}

/**
 * One session's line to its runner for the board: a read-only connection
 * subscribed to status pushes, reconnected a few times with backoff when it
 * cannot be had, and while there is none, a watch on the session's folder so
 * a change to host.json (an exited session renamed, a runner writing
 * `running`) is still seen at once. Holds no timer while idle.
 */
export class StatusLink {
  private conn: RunnerConnection | null = null;
  private connecting = false;
  /** Failed attempts since the last success or rearm; past the last delay we wait for news. */
  private tries = 0;
  private retry: unknown = null;
  private watcher: fs.FSWatcher | null = null;
  private released = false;

  constructor(
    private readonly home: string,
    private readonly id: string,
    private readonly retryMs: readonly number[],
    private readonly owner: StatusLinkOwner,
  ) {}

  get open(): boolean {
    return this.conn !== null && !this.conn.closed;
  }

  /** Connect, unless connected, on the way, waiting to retry, or given up (see rearm). */
  connect(): void {
    if (this.released || this.conn || this.connecting || this.retry !== null || this.tries > 0) return;
    this.attempt();
  }

  /** News (host.json changed, the sweep): a link that gave up may try again. */
  rearm(): void {
    if (!this.connecting && this.retry === null && !this.conn) this.tries = 0;
  }

  /** Watch the session's folder (only wanted while no connection is open). */
  watch(want: boolean): void {
    if (this.released) return;
    if (!want) {
      this.watcher?.close();
      this.watcher = null;
      return;
    }
    if (this.watcher) return;
    try {
      const w = fs.watch(sessionDir(this.home, this.id), (_event, file) => {
        if (file && file !== 'host.json') return; // runner.log, temporary files
        this.owner.onFolderChange();
      });
      w.on('error', () => {
        w.close();
        if (this.watcher === w) this.watcher = null;
      });
      this.watcher = w;
    } catch {
      this.owner.onFolderChange(); // the folder went away: the feed's rescan drops the session
    }
  }

  release(): void {
    this.released = true;
    this.owner.cancel(this.retry);
    this.retry = null;
    this.conn?.destroy();
    this.conn = null;
    this.watcher?.close();
    this.watcher = null;
  }

  private attempt(): void {
    this.connecting = true;
    RunnerConnection.open(socketPath(this.home, this.id), { client: 'board', readOnly: true }).then(
      (conn) => {
        this.connecting = false;
        if (this.released) {
          conn.destroy();
          return;
        }
        this.conn = conn;
        this.tries = 0;
        conn.onMessage((m) => {
          if (m.type === 'status') this.owner.onHost(m.host);
        });
        conn.onClose(() => {
          if (this.conn !== conn || this.released) return;
          this.conn = null;
          this.tries = 0;
          this.failed(); // exited (host.json says so), died (lost), or a zombie for a moment: retry, re-reading
        });
        conn.send({ type: 'subscribe_status' });
        this.watch(false);
        this.owner.onHost(conn.hello.host);
        this.owner.onOpen();
      },
      () => {
        this.connecting = false;
        if (!this.released) this.failed();
      },
    );
  }

  private failed(): void {
    const again = this.owner.onLost();
    const delay = this.retryMs[this.tries++];
    if (again && delay !== undefined && !this.released) {
      this.retry = this.owner.after(delay, () => {
        this.retry = null;
        if (!this.released && !this.conn && !this.connecting) this.attempt();
      });
    }
    this.watch(true);
  }
}
