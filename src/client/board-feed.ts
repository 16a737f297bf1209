/** The board's live data: the sessions with the status a user should see, and the selected session's screen. */
import fs from 'node:fs';
import { HEARTBEAT_STALE_MS, effectiveStatus } from '../core/protocol/host-status.js';
import type { HostRecord } from '../core/protocol/protocol.js';
import { ensurePrivateDir } from '../state/home.js';
import type { SessionView } from '../state/host-store.js';
import { sessionsDir } from '../state/paths.js';
import type { BoardFeed, PreviewScreen } from '../ui/board-api.js';
import { asHostRecord } from '../state/host-store.js';
import { byAge, feedView, readRecord, sameButHeartbeat } from './feed-records.js';
import { PreviewMirror, type FeedTimers } from './preview-mirror.js';
import { StatusLink } from './status-link.js';

export type { FeedTimers } from './preview-mirror.js';

export interface BoardFeedOptions {
  /** Subscribers hear of changes at most this often (ms). */
  notifyMs?: number;
  /** A change in the sessions folder is looked at after this quiet time (ms). */
  rescanMs?: number;
  /** A folder with no host.json yet (`new` is writing it) is looked at again after this (ms)... */
  pendingRetryMs?: number;
  /** ...this many times. */
  pendingTries?: number;
  /** Delays between attempts to reach a runner that refused (then wait for host.json to change). */
  retryMs?: readonly number[];
  /**
   * One timer for the whole feed (never one per session): ages heartbeats
   * (a wedged runner turns `lost`) and retries what events could not. 0: off.
   */
  sweepMs?: number;
  timers?: FeedTimers;
  now?: () => number;
}

const DEFAULT_TIMERS: FeedTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

interface Entry {
  id: string;
  record: HostRecord;
  view: SessionView;
  /** Status pushes from the runner, or a watch on the folder while there are none. */
  link: StatusLink;
}

const live = (e: Entry) => e.view.status === 'running' || e.view.status === 'starting';

/**
 * The board's live data: every session in the home with the status a user
 * should see, kept current by the runners' `status` pushes, and the selected
 * session's screen. While idle it holds one read-only connection per running
 * session, a watch on the sessions folder (and on the folder of each session
 * no runner speaks for) and one slow timer, and does nothing until something
 * changes.
 */
export class LiveBoardFeed implements BoardFeed {
  private readonly entries = new Map<string, Entry>();
  private readonly subscribers = new Set<() => void>();
  /** Folders seen without a readable host.json, and how often. */
  private readonly pending = new Map<string, number>();
  /** Sessions whose folder changed: their host.json is read at the next refresh. */
  private readonly dirty = new Set<string>();
  private readonly timers = new Set<unknown>();
  private readonly o: Required<Omit<BoardFeedOptions, 'timers' | 'now'>>;
  private readonly t: FeedTimers;
  private readonly now: () => number;
  private rootWatcher: fs.FSWatcher | null = null;
  private refreshTimer: unknown = null;
  private notifyTimer: unknown = null;
  private list: readonly SessionView[] = [];
  private listStale = true;
  private previewId: string | null = null;
  private mirror: PreviewMirror | null = null;
  private previewScreen: PreviewScreen | null = null;
  private previewStale = false;
  private disposed = false;

  constructor(readonly home: string, options: BoardFeedOptions = {}) {
    this.o = {
      notifyMs: options.notifyMs ?? 50,
      rescanMs: options.rescanMs ?? 50,
      pendingRetryMs: options.pendingRetryMs ?? 50,
      pendingTries: options.pendingTries ?? 20,
      retryMs: options.retryMs ?? [100, 200, 400, 800, 1600],
      sweepMs: options.sweepMs ?? 5000,
    };
    this.t = options.timers ?? DEFAULT_TIMERS;
    this.now = options.now ?? Date.now;
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
    if (this.previewStale) {
      this.previewScreen = this.mirror?.screen() ?? null;
      this.previewStale = false;
    }
    return this.previewScreen;
  }

  subscribe(fn: () => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  setPreview(id: string | null): void {
    if (this.disposed || id === this.previewId) return;
    this.previewId = id;
    this.mirror?.dispose();
    this.mirror = null;
    const e = id === null ? undefined : this.entries.get(id);
    if (e) this.followPreview(e);
    this.previewChanged();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.rootWatcher?.close();
    this.rootWatcher = null;
    for (const e of this.entries.values()) e.link.release();
    this.entries.clear();
    this.mirror?.dispose();
    this.mirror = null;
    for (const h of this.timers) this.t.clearTimeout(h);
    this.timers.clear();
    this.subscribers.clear();
  }

  // ---- timers and notifications ------------------------------------------

  private after(ms: number, fn: () => void): unknown {
    const h: unknown = this.t.setTimeout(() => {
      this.timers.delete(h);
      if (!this.disposed) this.guard(fn);
    }, ms);
    this.timers.add(h);
    return h;
  }

  private cancel(h: unknown): void {
    if (h === null || h === undefined) return;
    this.timers.delete(h);
    this.t.clearTimeout(h);
  }

  private changed(): void {
    this.listStale = true;
    this.scheduleNotify();
  }

  private previewChanged(): void {
    this.previewStale = true;
    this.scheduleNotify();
  }

  private scheduleNotify(): void {
    if (this.notifyTimer !== null || this.disposed) return;
    this.notifyTimer = this.after(this.o.notifyMs, () => {
      this.notifyTimer = null;
      for (const fn of [...this.subscribers]) this.guard(fn);
    });
  }

  private armSweep(): void {
    if (this.o.sweepMs <= 0) return;
    const h = this.after(this.o.sweepMs, () => {
      this.sweep();
      this.armSweep();
    });
    (h as { unref?: () => void }).unref?.(); // the feed's sockets and watches are what keep a process alive
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch {
      // Never out of an event handler: one bad session must not stop the board.
    }
  }

  // ---- the sessions folder -------------------------------------------------

  private watchRoot(): void {
    try {
      const w = fs.watch(sessionsDir(this.home), () => this.scheduleRefresh(this.o.rescanMs));
      w.on('error', () => {
        w.close();
        if (this.rootWatcher === w) this.rootWatcher = null; // the sweep watches again
      });
      this.rootWatcher = w;
    } catch {
      this.rootWatcher = null;
    }
  }

  private scheduleRefresh(ms: number): void {
    if (this.refreshTimer !== null || this.disposed) return;
    this.refreshTimer = this.after(ms, () => {
      this.refreshTimer = null;
      this.refresh();
    });
  }

  /** Diffs the folder against what we know, and re-reads host.json of sessions whose folder changed. */
  private refresh(): void {
    let names: string[] = [];
    try {
      names = fs.readdirSync(sessionsDir(this.home));
    } catch {
      // gone: every session with it
    }
    const present = new Set(names);
    for (const id of [...this.entries.keys()]) if (!present.has(id)) this.drop(id);
    for (const id of this.pending.keys()) if (!present.has(id)) this.pending.delete(id);
    let waiting = false;
    for (const id of names) {
      if (this.entries.has(id)) continue;
      const rec = readRecord(this.home, id);
      if (rec) {
        this.pending.delete(id);
        this.add(rec);
        continue;
      }
      const tries = (this.pending.get(id) ?? 0) + 1;
      this.pending.set(id, tries);
      if (tries <= this.o.pendingTries) waiting = true;
    }
    for (const id of this.dirty) {
      const e = this.entries.get(id);
      if (!e) continue;
      const before = JSON.stringify(e.record);
      this.reread(e);
      if (JSON.stringify(e.record) !== before) e.link.rearm(); // worth another try at a runner we gave up on
      this.sync(e);
    }
    this.dirty.clear();
    if (waiting) this.scheduleRefresh(this.o.pendingRetryMs);
  }

  private add(record: HostRecord): void {
    const id = record.id;
    const e: Entry = { id, record, view: feedView(record, this.now()), link: null as unknown as StatusLink };
    e.link = new StatusLink(this.home, id, this.o.retryMs, {
      after: (ms, fn) => this.after(ms, fn),
      cancel: (h) => this.cancel(h),
      onHost: (host) => this.guard(() => this.setRecord(e, host)),
      onOpen: () => this.guard(() => e.id === this.previewId && this.followPreview(e)),
      onLost: () => {
        let again = false;
        this.guard(() => {
          if (!this.reread(e)) this.scheduleRefresh(this.o.rescanMs); // gone with its folder?
          again = live(e);
        });
        return again;
      },
      onFolderChange: () => {
        this.dirty.add(id);
        this.scheduleRefresh(this.o.rescanMs);
      },
    });
    this.entries.set(id, e);
    this.changed();
    this.sync(e);
    if (id === this.previewId && !this.mirror) this.followPreview(e);
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.link.release();
    this.entries.delete(id);
    this.changed();
    if (id === this.previewId && this.mirror) {
      this.mirror.dispose();
      this.mirror = null;
      this.previewChanged();
    }
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
    const view = feedView(e.record, this.now(), e.link.open);
    if (sameButHeartbeat(e.view, view)) return;
    e.view = view;
    this.changed();
    if (e.id === this.previewId) this.followPreview(e);
  }

  private sweep(): void {
    if (!this.rootWatcher) {
      this.watchRoot();
      this.scheduleRefresh(0);
    }
    const now = this.now();
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

  // ---- the preview -------------------------------------------------------------

  private followPreview(e: Entry): void {
    if (live(e) && this.mirror?.isFinal) {
      // Taken for lost (a runner that slept with the machine) and back: follow it live again.
      this.mirror.dispose();
      this.mirror = null;
    }
    this.mirror ??= new PreviewMirror(this.home, e.id, this.t, () => this.previewChanged());
    if (live(e)) {
      this.mirror.live();
      this.mirror.fit(e.view.cols, e.view.rows);
    } else {
      this.mirror.showFinal(e.record.cols, e.record.rows);
    }
  }
}
