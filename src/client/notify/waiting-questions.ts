/**
 * The questions the waiting sessions ask, read off their screens, for the notifications that say
 * why a session needs the user (src/client/notify/notice-texts.ts: the terminal board's, and the
 * web server's pushes) and the web page's answer buttons (src/web/server/hub).
 */
import { dialogText, type DialogText } from '../../core/agents/dialog-text.js';
import { dialogLine } from '../../core/board/notice-text.js';
import type { Time } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import { sessionState } from '../../core/session-state.js';
import { socketPath } from '../../state/paths.js';
import type { SessionView } from '../../state/host-store.js';
import type { BoardFeed } from '../feed/board-api.js';
import { PreviewMirror } from '../feed/preview-mirror.js';
import { RunnerConnection } from '../link/connection.js';
import { connectRemote } from '../remote/remote.js';

/** The waiting sessions' questions (the web server's seam, src/web/server/web-types.ts, is this one). */
export interface WaitingQuestions {
  /** The dialog a waiting session shows now, or null. */
  dialog(id: string): DialogText | null;
  /** A question was read or went away. */
  readonly onChange: Event<void>;
}

/**
 * A screen is read this long after its last change, not at every chunk: a dialog is drawn in a
 * few writes, and reading half of one would tell a question without its options.
 */
export const QUESTION_SETTLE_MS = 30;

export interface LiveWaitingQuestionsDeps {
  home: string;
  /** The sessions (this machine's, or every host's: a remote row's screen comes over ssh). */
  feed: BoardFeed;
  time: Time;
  /** How a session's runner is reached (what the try holds goes in `owner`); default its local socket, or `bridge` over ssh for a remote row. */
  open?: (s: SessionView, owner: DisposableStore) => Promise<RunnerConnection>;
}

interface Watched {
  store: DisposableStore;
  mirror: PreviewMirror;
  /** The read waiting for the screen to settle. */
  read: MutableDisposable;
  dialog: DialogText | null;
}

/**
 * Follows a BoardFeed; while a session is `waiting`, mirrors its screen (a read-only
 * PreviewMirror: subscribed with no size, so it never resizes the session) and keeps the dialog
 * on it (src/core/agents/dialog-text.ts). Fires `onChange` when a question is read, changes, or
 * goes away (the session stopped waiting, or is gone). A mirror's problem is an `onError`
 * event, for the owner's log.
 */
export class LiveWaitingQuestions implements WaitingQuestions, Disposable {
  private readonly changes = new Emitter<void>();
  private readonly errors = new Emitter<string>();
  readonly onChange: Event<void> = this.changes.event;
  /** What only a developer needs (a bad frame from a runner). */
  readonly onError: Event<string> = this.errors.event;
  private readonly watched = new Map<string, Watched>();
  private readonly store = new DisposableStore();
  private lastList: readonly SessionView[] | null = null;

  constructor(private readonly d: LiveWaitingQuestionsDeps) {
    this.store.add(this.changes);
    this.store.add(this.errors);
    this.store.add(d.feed.onChange(() => this.look()));
    this.look();
  }

  dialog(id: string): DialogText | null {
    return this.watched.get(id)?.dialog ?? null;
  }

  dispose(): void {
    for (const w of this.watched.values()) w.store.dispose();
    this.watched.clear();
    this.store.dispose();
  }

  private look(): void {
    const list = this.d.feed.sessions;
    if (list === this.lastList) return; // a preview change
    this.lastList = list;
    const waiting = new Map(list.filter((s) => sessionState(s) === 'waiting').map((s) => [s.id, s]));
    let changed = false;
    for (const [id, w] of [...this.watched]) {
      if (waiting.has(id)) continue;
      w.store.dispose();
      this.watched.delete(id);
      if (w.dialog) changed = true;
    }
    for (const [id, s] of waiting) if (!this.watched.has(id)) this.watch(s);
    if (changed) this.changes.fire();
  }

  private watch(s: SessionView): void {
    const { time } = this.d;
    const open = this.d.open ?? ((v: SessionView, owner: DisposableStore) => defaultOpen(this.d.home, v, time, owner));
    const store = new DisposableStore();
    const mirror = store.add(new PreviewMirror(this.d.home, s.id, time, (owner) => open(s, owner)));
    const read = store.add(new MutableDisposable());
    const w: Watched = { store, mirror, read, dialog: null };
    store.add(mirror.onChange(() => (read.value = time.scheduler.setTimeout(() => this.read(s.id, w), QUESTION_SETTLE_MS))));
    store.add(mirror.onError((detail) => this.errors.fire(`the question of ${s.id}: ${detail}`)));
    this.watched.set(s.id, w);
    mirror.live();
  }

  private read(id: string, w: Watched): void {
    if (this.watched.get(id) !== w) return;
    const screen = w.mirror.screen();
    const dialog = screen ? dialogText(screen.lines) : null;
    if (same(dialog, w.dialog)) return;
    w.dialog = dialog;
    this.changes.fire();
  }
}

function same(a: DialogText | null, b: DialogText | null): boolean {
  if (a === null || b === null) return a === b;
  return dialogLine(a) === dialogLine(b) && a.options.map((o) => o.selected).join() === b.options.map((o) => o.selected).join();
}

/** A local row through its socket; a remote row (the board's --host) through `bridge` over ssh, by its id there. */
function defaultOpen(home: string, s: SessionView, time: Time, owner: DisposableStore): Promise<RunnerConnection> {
  const opts = { client: 'notify', readOnly: true, scheduler: time.scheduler, owner };
  if (s.host && s.remoteId) return connectRemote(s.host, s.remoteId, opts);
  return RunnerConnection.open(socketPath(home, s.id), opts);
}
