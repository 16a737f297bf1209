/**
 * One session's line to its runner for the board feed (src/client/feed/board-feed.ts): status pushes
 * over a read-only connection, kept up by a RunnerLink (src/client/link/runner-link.ts), and a
 * watch on the session's folder while there is no connection.
 */
import fs from 'node:fs';
import type { Time } from '../../core/clock.js';
import type { TermSize } from '../../core/protocol/size.js';
import { DisposableStore, Emitter, MutableDisposable, toDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import { sessionDir, socketPath } from '../../state/paths.js';
import { RunnerConnection } from '../link/connection.js';
import { RunnerLink } from '../link/runner-link.js';

export interface StatusLinkDeps {
  home: string;
  id: string;
  /** Delays between attempts to reach a runner that refused, then wait for news (rearm): STATUS_RETRY's unless the feed says. */
  retryMs: readonly number[];
  time: Time;
  /**
   * Asked each time the runner could not be reached or the connection closed, after `onLost`
   * (where the feed re-reads host.json): whether the session should still have a runner (then
   * it is tried again, a few times).
   */
  wantsRunner(): boolean;
  /** The watcher's own terminal size, offered to the runner with the subscription (protocol.md, `subscribe_status`). */
  view?: () => TermSize | null;
}

/**
 * One session's line to its runner for the board: a read-only connection
 * subscribed to status pushes, reconnected a few times with backoff when it
 * cannot be had, and while there is none, a watch on the session's folder so
 * a change to host.json (an exited session renamed, a runner writing
 * `running`) is still seen at once. Holds no timer while idle.
 *
 * Its events are for the feed, which guards each listener (an error it throws is reported, not lost).
 */
export class StatusLink implements Disposable {
  private readonly hosts = new Emitter<unknown>();
  private readonly opens = new Emitter<void>();
  private readonly losses = new Emitter<void>();
  private readonly folderChanges = new Emitter<void>();
  private readonly problems = new Emitter<string>();
  /** A host record from the runner (its hello, then every `status` push), unchecked. */
  readonly onHost: Event<unknown> = this.hosts.event;
  /** The subscription is up. */
  readonly onOpen: Event<void> = this.opens.event;
  /** The runner could not be reached, or the connection closed: host.json is worth reading again. */
  readonly onLost: Event<void> = this.losses.event;
  /** host.json changed while no connection was open. */
  readonly onFolderChange: Event<void> = this.folderChanges.event;
  /** Something only a developer needs to know (a bad frame from the runner): for the board log. */
  readonly onProblem: Event<string> = this.problems.event;
  private readonly link: RunnerLink<RunnerConnection>;
  private readonly watcher = new MutableDisposable();
  private readonly store = new DisposableStore();
  private lastTryFailed = false;

  constructor(private readonly d: StatusLinkDeps) {
    const { home, id, time } = d;
    this.link = new RunnerLink({
      connect: (owner) => RunnerConnection.open(socketPath(home, id), { client: 'board', readOnly: true, scheduler: time.scheduler, owner }),
      schedule: { delaysMs: d.retryMs, afterLast: 'give-up' },
      scheduler: time.scheduler,
      // Refused or silent is no error: the session may be starting or gone. Exited (host.json
      // says so), died (lost), or a zombie for a moment: the feed re-reads and says whether to retry.
      retryWhen: (f) => {
        if (f.cause === 'unanswered') this.lastTryFailed = true;
        this.losses.fire();
        return this.d.wantsRunner();
      },
    });
    this.store.add(this.link.onOpen(({ conn }) => this.opened(conn)));
    this.store.add(
      this.link.onMessage((m) => {
        if (m.type === 'status') this.hosts.fire(m.host);
      }),
    );
    this.store.add(this.link.onError((e) => this.problems.fire(`session ${id}: the runner sent a bad frame (${e.message})`)));
    this.store.add(
      this.link.onStateChange((s) => {
        if (s.kind === 'waiting' || s.kind === 'given-up') this.watch(true);
      }),
    );
    for (const d of [this.link, this.watcher, this.hosts, this.opens, this.losses, this.folderChanges, this.problems]) this.store.add(d);
  }

  get open(): boolean {
    return this.link.current !== null;
  }

  /** The last try to reach the runner failed (refused, or no hello in time), and none has worked since. */
  get unanswered(): boolean {
    return this.lastTryFailed;
  }

  /** Connect, unless connected, on the way, waiting to retry, or given up (see rearm). */
  connect(): void {
    this.link.start();
  }

  /** The watcher's terminal changed size: the runner hears of it (a subscription again, with the new view). */
  offerView(): void {
    const conn = this.link.current;
    if (conn) this.subscribe(conn);
  }

  /** News (host.json changed, the sweep): a link that gave up may try again. */
  rearm(): void {
    this.link.rearm();
  }

  /** Watch the session's folder (only wanted while no connection is open). */
  watch(want: boolean): void {
    if (this.store.isDisposed) return;
    if (!want) {
      this.watcher.clear();
      return;
    }
    if (this.watcher.value) return;
    try {
      const w = fs.watch(sessionDir(this.d.home, this.d.id), (_event, file) => {
        if (file && file !== 'host.json') return; // runner.log, temporary files
        this.folderChanges.fire();
      });
      const held = toDisposable(() => w.close());
      w.on('error', () => {
        // A broken watch: the feed's sweep looks at the session anyway, and watches again.
        if (this.watcher.value === held) this.watcher.clear();
        else w.close();
      });
      this.watcher.value = held;
    } catch {
      this.folderChanges.fire(); // the folder went away: the feed's rescan drops the session
    }
  }

  dispose(): void {
    this.store.dispose();
  }

  private opened(conn: RunnerConnection): void {
    this.lastTryFailed = false;
    this.subscribe(conn);
    this.watch(false);
    this.hosts.fire(conn.hello.host);
    this.opens.fire();
  }

  private subscribe(conn: RunnerConnection): void {
    const view = this.d.view?.();
    conn.send(view ? { type: 'subscribe_status', view: { cols: view.cols, rows: view.rows } } : { type: 'subscribe_status' });
  }
}
