/** The board's live data (the real BoardFeed of src/client/feed/board-api.ts): the sessions, their status, the preview. */
import type { Clock, Scheduler } from '../../core/clock.js';
import { feedTuning, type BoardFeedOptions, type FeedTuning } from './board-feed-options.js';
import { SessionsFolder, watchSessionsFolder } from './feed-folder.js';
import { DisposableStore, Emitter, MutableDisposable, toDisposable, type Event } from '../../core/lifetime.js';
import { HEARTBEAT_STALE_MS, effectiveStatus } from '../../core/protocol/host-status.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { TermSize } from '../../core/protocol/size.js';
import { ensurePrivateDir } from '../../state/home.js';
import type { SessionView } from '../../state/host-store.js';
import { sessionsDir } from '../../state/paths.js';
import type { BoardFeed, FeedError, PreviewScreen } from './board-api.js';
import { FeedErrors } from './feed-errors.js';
import { asHostRecord } from '../../state/host-store.js';
import { byAge, feedView, readRecord, sameButHeartbeat } from './feed-records.js';
import { live, target, type Entry } from './feed-entry.js';
import { FeedPreview } from './feed-preview.js';
import { FrameThrottle } from './frame-throttle.js';
import { StatusLink } from './status-link.js';
import { WorktreeFollow } from '../worktree/worktree-follow.js';

export { FEED_BUG_MESSAGE } from './feed-errors.js';


/**
 * The board's live data: every session in the home with the status a user
 * should see, kept current by the runners' `status` pushes, and the selected
 * session's screen. While idle it holds one read-only connection per running
 * session, a watch on the sessions folder (and on the folder of each session
 * no runner speaks for) and one slow timer, and does nothing until something
 * changes. A callback of its own that throws (a bug) is an `onError` event,
 * and the feed carries on.
 */
export class LiveBoardFeed implements BoardFeed {
  private readonly entries = new Map<string, Entry>();
  private readonly changes = new Emitter<void>();
  /** onError's events, and the guard every callback of the feed runs in (src/client/feed/feed-errors.ts). */
  private readonly errors = new FeedErrors();
  /** Everything the feed holds: released by dispose, last added first. */
  private readonly store = new DisposableStore();
  /** Sessions whose folder changed: their host.json is read at the next refresh. */
  private readonly dirty = new Set<string>();
  private readonly o: FeedTuning;
  private readonly folder: SessionsFolder;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  private readonly rootWatcher = new MutableDisposable();
  private readonly refreshTimer = new MutableDisposable();
  private readonly sweepTimer = new MutableDisposable();
  private list: readonly SessionView[] = [];
  private readonly notifier: FrameThrottle;
  private listStale = true;
  private readonly previewer: FeedPreview;
  /** The counts of worktree sessions whose runner is gone, which nobody else keeps fresh. */
  private readonly worktrees: WorktreeFollow;
  private disposed = false;
  private view: TermSize | null;

  constructor(readonly home: string, options: BoardFeedOptions) {
    this.o = feedTuning(options);
    this.view = options.viewSize ?? null;
    this.folder = new SessionsFolder(home, this.o.pendingTries);
    this.clock = options.clock;
    this.scheduler = options.scheduler;
    this.notifier = new FrameThrottle(this.clock, this.scheduler, this.o.notifyMs, () => this.errors.guard('a subscriber', () => this.changes.fire()));
    this.previewer = new FeedPreview({ home, time: { clock: this.clock, scheduler: this.scheduler } });
    this.previewer.onChange(() => this.scheduleNotify()); // released with the previewer
    this.previewer.onProblem((detail) => this.errors.problem(detail));
    this.worktrees = new WorktreeFollow({
      home,
      clock: this.clock,
      scheduler: this.scheduler,
      changed: (id) =>
        this.errors.guard('a worktree count', () => {
          const e = this.entries.get(id);
          if (e) this.updateView(e);
        }),
      log: (line) => this.errors.problem(`board feed: ${line}`),
    });
    for (const d of [this.changes, this.errors, this.rootWatcher, this.refreshTimer, this.notifier, this.sweepTimer, this.previewer, this.worktrees]) this.store.add(d);
    this.store.add(
      toDisposable(() => {
        for (const e of this.entries.values()) e.link.dispose();
        this.entries.clear();
      }),
    );
    ensurePrivateDir(sessionsDir(home), 'sessions directory');
    this.watchRoot(); // before the first scan, so nothing made in between is missed
    this.refresh();
    this.armSweep();
  }

  get sessions(): readonly SessionView[] {
    if (this.listStale) {
      this.list = [...this.entries.values()].map((e) => e.view).sort(byAge);
      this.listStale = false;
    }
    return this.list;
  }

  get preview(): PreviewScreen | null {
    return this.previewer.screen;
  }

  /** The sessions or the preview changed: at once after a quiet spell, then at most once per notifyMs. */
  readonly onChange: Event<void> = (fn) => this.changes.event(fn);

  /** A callback of the feed threw, or a runner sent what cannot be read: the detail for the board log. */
  readonly onError: Event<FeedError> = (fn) => this.errors.event(fn);

  /** The board's terminal was resized: every runner it watches hears the new view. */
  setViewSize(size: TermSize): void {
    if (this.view?.cols === size.cols && this.view.rows === size.rows) return;
    this.view = { cols: size.cols, rows: size.rows };
    for (const e of this.entries.values()) e.link.offerView();
  }

  setPreview(id: string | null): void {
    if (this.disposed) return;
    const e = id === null ? undefined : this.entries.get(id);
    this.previewer.select(id, e && target(e));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.store.dispose();
  }

  // ---- timers and notifications ------------------------------------------

  /** One timer in `slot` (replacing what it held), its callback guarded. */
  private after(slot: MutableDisposable, ms: number, what: string, fn: () => void): void {
    slot.value = this.scheduler.setTimeout(() => {
      slot.clear();
      if (!this.disposed) this.errors.guard(what, fn);
    }, ms);
  }

  private changed(): void {
    this.listStale = true;
    this.scheduleNotify();
  }

  /** Subscribers hear at most once per notifyMs, at once after a quiet spell (src/client/feed/frame-throttle.ts). */
  private scheduleNotify(): void {
    this.notifier.request();
  }

  private armSweep(): void {
    if (this.o.sweepMs <= 0) return;
    // The board's start hands over an unref'd scheduler: the feed's sockets and watches are what keep a process alive.
    this.after(this.sweepTimer, this.o.sweepMs, 'the sweep', () => {
      try {
        this.sweep();
      } finally {
        this.armSweep();
      }
    });
  }

  // ---- the sessions folder -------------------------------------------------

  private watchRoot(): void {
    // A watch that cannot be had, or breaks, is none: the sweep watches again, and rescans meanwhile.
    watchSessionsFolder(this.home, this.rootWatcher, () => this.scheduleRefresh(this.o.rescanMs));
  }

  private scheduleRefresh(ms: number): void {
    if (this.refreshTimer.value || this.disposed) return;
    this.after(this.refreshTimer, ms, 'a refresh', () => this.refresh());
  }

  /** Diffs the folder against what we know, and re-reads host.json of sessions whose folder changed. */
  private refresh(): void {
    const scan = this.folder.scan(this.entries);
    for (const id of scan.gone) this.drop(id);
    for (const rec of scan.appeared) this.add(rec);
    for (const id of this.dirty) {
      const e = this.entries.get(id);
      if (!e) continue;
      const before = JSON.stringify(e.record);
      this.reread(e);
      if (JSON.stringify(e.record) !== before) e.link.rearm(); // worth another try at a runner we gave up on
      this.sync(e);
    }
    this.dirty.clear();
    if (scan.lookAgain) this.scheduleRefresh(this.o.pendingRetryMs);
  }

  private add(record: HostRecord): void {
    const id = record.id;
    const e: Entry = { id, record, view: this.worktrees.view(id, feedView(record, this.clock.now())), link: null as unknown as StatusLink };
    e.link = new StatusLink({
      home: this.home,
      id,
      retryMs: this.o.retryMs,
      time: { clock: this.clock, scheduler: this.scheduler },
      view: () => this.view,
      wantsRunner: () => live(e),
    });
    // The link's events go with it (e.link.dispose()); each listener is guarded.
    e.link.onHost((host) => this.errors.guard('a status push', () => this.setRecord(e, host)));
    e.link.onOpen(() => this.errors.guard('a status link opening', () => this.previewer.update(target(e))));
    e.link.onLost(() =>
      this.errors.guard('a status link closing', () => {
        if (!this.reread(e)) this.scheduleRefresh(this.o.rescanMs); // gone with its folder?
      }),
    );
    e.link.onFolderChange(() => {
      this.dirty.add(id);
      this.scheduleRefresh(this.o.rescanMs);
    });
    e.link.onProblem((detail) => this.errors.problem(detail));
    this.entries.set(id, e);
    this.changed();
    this.sync(e);
    this.previewer.appeared(target(e));
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.link.dispose();
    this.worktrees.stop(id);
    this.entries.delete(id);
    this.changed();
    this.previewer.gone(id);
  }

  // ---- one session -----------------------------------------------------------

  /** Connect or watch, whichever the session needs now. */
  private sync(e: Entry): void {
    if (this.disposed || this.entries.get(e.id) !== e) return;
    if (live(e)) e.link.connect();
    e.link.watch(!e.link.open);
  }

  private reread(e: Entry): boolean {
    const rec = readRecord(this.home, e.id);
    if (rec) this.setRecord(e, rec);
    else this.updateView(e);
    return rec !== null;
  }

  private setRecord(e: Entry, host: unknown): void {
    const rec = asHostRecord(host, e.id);
    if (!rec) return;
    const old = e.record;
    e.record = rec;
    // A heartbeat (a hundred runners send 20 a second): a fresh stamp, nothing anyone would see.
    if (e.link.open && sameButHeartbeat(old, rec) && e.view.status === rec.status) return;
    this.updateView(e);
  }

  private updateView(e: Entry): void {
    const view = this.worktrees.view(e.id, feedView(e.record, this.clock.now(), e.link));
    if (sameButHeartbeat(e.view, view)) return;
    e.view = view;
    this.changed();
    if (this.previewer.follows(e.id)) this.previewer.update(target(e));
  }

  private sweep(): void {
    if (!this.rootWatcher.value) {
      this.watchRoot();
      this.scheduleRefresh(0);
    }
    const now = this.clock.now();
    for (const e of this.entries.values()) {
      if (e.link.open) {
        // A runner that pushes no heartbeats still writes them to host.json: look there before calling it wedged.
        if (now - Date.parse(e.record.heartbeatAt) > HEARTBEAT_STALE_MS / 2) this.reread(e);
        // Connected: only a heartbeat gone stale (a wedged runner) can change what we show.
        if (effectiveStatus(e.record, true, now) !== e.view.status) this.updateView(e);
      } else {
        this.updateView(e); // a runner pid gone, a start that never finished
        if (live(e)) e.link.rearm(); // one more try per sweep at a runner we could not reach
      }
      this.sync(e);
    }
  }
}

