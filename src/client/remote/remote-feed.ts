/**
 * The board's feed over several machines (the board's --host and config.json `hosts`): this
 * machine's LiveBoardFeed and one HostFeed per host (src/client/remote/host-feed.ts), as one
 * BoardFeed. Remote rows are keyed `host/id` (src/client/remote/host-rows.ts), carry their host, and
 * are stale while their link is down; the selected remote row's screen is mirrored through
 * `agent-board bridge` over ssh, as a local one is through its socket.
 */
import type { Time } from '../../core/clock.js';
import { DisposableStore, Emitter, type Event } from '../../core/lifetime.js';
import type { SessionView } from '../../state/host-store.js';
import type { BoardFeed, FeedError, PreviewScreen } from '../feed/board-api.js';
import { FeedErrors } from '../feed/feed-errors.js';
import { FeedPreview, type PreviewTarget } from '../feed/feed-preview.js';
import { FrameThrottle } from '../feed/frame-throttle.js';
import { FRAME_MS } from '../feed/board-feed-options.js';
import { HostFeed, type HostFeedDeps } from './host-feed.js';
import { hostRows, isRemoteKey, remoteKey } from './host-rows.js';
import type { RunnerConnection } from '../link/connection.js';
import { connectRemote, runRemote } from './remote.js';

export interface RemoteFeedOptions {
  /** This machine's home (the preview's; a remote row's screen always comes over ssh). */
  home: string;
  time: Time;
  /** How a host's link starts and polls (tests); default ssh. */
  link?: Pick<HostFeedDeps, 'open' | 'poll'>;
  /** How the preview reaches a remote row's runner (tests); default the bridge over ssh. */
  connect?: (host: string, id: string) => Promise<RunnerConnection>;
  /** A remote row's last screen once it ended (tests); default `peek --ansi` there. */
  peek?: (host: string, id: string) => Promise<string>;
}

export class MultiHostFeed implements BoardFeed {
  private readonly hostFeeds: HostFeed[] = [];
  private readonly changes = new Emitter<void>();
  private readonly errors = new FeedErrors();
  private readonly store = new DisposableStore();
  private readonly notifier: FrameThrottle;
  private readonly remotePreview: FeedPreview;
  private selected: string | null = null;
  private list: readonly SessionView[] = [];
  private madeFrom: readonly SessionView[] | null = null;
  private hostsChanged = true;
  private lines: readonly string[] = [];
  private paused: readonly string[] = [];
  /** Each host's rows as last made, kept while the host says nothing new (so are their objects). */
  private readonly rowsOf = new Map<HostFeed, readonly SessionView[]>();

  constructor(private readonly local: BoardFeed, hosts: readonly string[], private readonly o: RemoteFeedOptions) {
    const { time } = o;
    this.notifier = new FrameThrottle(time.clock, time.scheduler, FRAME_MS, () => this.errors.guard('a subscriber', () => this.changes.fire()));
    this.remotePreview = new FeedPreview({
      home: o.home,
      time,
      open: (key, owner) =>
        Promise.resolve().then(() => {
          const s = this.remoteRow(key);
          if (o.connect) return o.connect(s.host, s.id);
          return connectRemote(s.host, s.id, { client: 'board-preview', readOnly: true, scheduler: time.scheduler, owner });
        }),
      // An ended remote session's last screen is a file over there: `peek --ansi` prints it.
      readFinal: (key) =>
        Promise.resolve().then(() => {
          const s = this.remoteRow(key);
          return o.peek ? o.peek(s.host, s.id) : runRemote(s.host, ['peek', '--ansi', s.id], time.scheduler);
        }),
    });
    for (const d of [this.changes, this.errors, this.notifier, this.remotePreview]) this.store.add(d);
    this.store.add(this.remotePreview.onChange(() => this.notifier.request()));
    this.store.add(this.remotePreview.onProblem((detail) => this.errors.problem(detail)));
    // The local feed has its own frame throttle: its changes go on at once.
    this.store.add(local.onChange(() => this.errors.guard('a subscriber', () => this.changes.fire())));
    // Each host's first news comes after its listeners are on: a try's end (even no ssh at all) is a promise's.
    for (const host of hosts) {
      const h = this.store.add(new HostFeed({ host, time, ...o.link }));
      this.store.add(h.onChange(() => this.errors.guard('a host change', () => this.hostChanged(host))));
      this.store.add(h.onProblem((detail) => this.errors.problem(detail)));
      this.hostFeeds.push(h);
    }
  }

  /** This machine's sessions, then each host's (stale while its link is down). */
  get sessions(): readonly SessionView[] {
    const local = this.local.sessions;
    if (this.hostsChanged || local !== this.madeFrom) {
      this.list = [...local, ...this.hostFeeds.flatMap((h) => this.rowsOf.get(h) ?? [])];
      this.madeFrom = local;
      this.hostsChanged = false;
      this.lines = this.hostFeeds.flatMap((h) => h.line(this.o.time.clock.now()) ?? []);
      const paused = this.hostFeeds.flatMap((h) => (h.pausedRooms ?? []).map((r) => remoteKey(h.host, r)));
      if (paused.join('\n') !== this.paused.join('\n')) this.paused = paused;
    }
    return this.list;
  }

  /** Remote rooms (`host/room`) whose loop guard is paused there, as their far sides say (src/client/remote/remote-chat.ts shows them). */
  get pausedRooms(): readonly string[] {
    void this.sessions; // brings them up to date with the list
    return this.paused;
  }

  /** Whether `host`'s far side says which of its rooms are paused (an older one does not). */
  knowsPaused(host: string): boolean {
    return this.hostFeeds.find((h) => h.host === host)?.pausedRooms != null;
  }

  /** One line for each host that cannot be reached now. */
  get hostLines(): readonly string[] {
    void this.sessions; // brings the lines up to date with the list
    return this.lines;
  }

  get preview(): PreviewScreen | null {
    return this.selected !== null && isRemoteKey(this.selected) ? this.remotePreview.screen : this.local.preview;
  }

  /** Any machine's sessions, or the preview, changed (the local feed's at once: it has its own frame throttle). */
  readonly onChange: Event<void> = (fn) => this.changes.event(fn);

  readonly onError: Event<FeedError> = (fn) => {
    const both = new DisposableStore();
    both.add(this.errors.event(fn));
    both.add(this.local.onError(fn));
    return both;
  };

  setPreview(id: string | null): void {
    this.selected = id;
    const remote = id !== null && isRemoteKey(id);
    this.local.setPreview(remote ? null : id);
    const s = remote ? this.sessions.find((v) => v.id === id) : undefined;
    this.remotePreview.select(remote ? id : null, s && target(s));
  }

  dispose(): void {
    this.store.dispose();
    this.local.dispose();
  }

  /** A remote row's machine and id there, for the preview; throws when it is gone (inside the promise: the mirror retries, then keeps its last screen). */
  private remoteRow(key: string): { host: string; id: string } {
    const s = this.list.find((v) => v.id === key);
    if (!s?.host || !s.remoteId) throw new Error(`no remote session ${key}`);
    return { host: s.host, id: s.remoteId };
  }

  private hostChanged(host: string): void {
    const h = this.hostFeeds.find((x) => x.host === host);
    if (h) this.rowsOf.set(h, hostRows({ host, sessions: h.sessions, stale: h.stale }, this.rowsOf.get(h)));
    this.hostsChanged = true;
    if (this.selected !== null && isRemoteKey(this.selected)) {
      const s = this.sessions.find((v) => v.id === this.selected);
      if (s) this.remotePreview.update(target(s));
    }
    this.notifier.request();
  }
}

/** A remote row as the preview follows it: live through the bridge until it ended there (a stale row is tried live). */
function target(s: SessionView): PreviewTarget {
  return { id: s.id, live: s.status !== 'exited', cols: s.cols, rows: s.rows, finalCols: s.cols, finalRows: s.rows };
}
