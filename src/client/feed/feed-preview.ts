/**
 * The board feed's preview (src/client/feed/board-feed.ts): which session it follows, the mirror of
 * that session's screen (src/client/feed/preview-mirror.ts), live or final as the session is, and the
 * screen as last read, read again only after the mirror said it changed.
 */
import type { Time } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import type { PreviewScreen } from './board-api.js';
import type { RunnerConnection } from '../link/connection.js';
import { PreviewMirror } from './preview-mirror.js';

/** What the preview needs to know of the session it follows. */
export interface PreviewTarget {
  id: string;
  /** Running (or starting): follow it live; else show its final screen. */
  live: boolean;
  /** The size the board shows it at (live). */
  cols: number;
  rows: number;
  /** The size its final screen was saved at. */
  finalCols: number;
  finalRows: number;
}

export interface FeedPreviewDeps {
  home: string;
  /** The mirrors' clock and timers. */
  time: Time;
  /** How the mirror of session `id` reaches its runner, what the try holds in `owner` (default: its local socket). */
  open?: (id: string, owner: DisposableStore) => Promise<RunnerConnection>;
  /** Session `id`'s final screen (default: its final-screen.ans). */
  readFinal?: (id: string) => Promise<string>;
}

export class FeedPreview implements Disposable {
  private readonly changes = new Emitter<void>();
  private readonly problems = new Emitter<string>();
  /** The screen (or which session) changed: the feed notifies its subscribers. */
  readonly onChange: Event<void> = this.changes.event;
  /** Something only a developer needs (for the board log). */
  readonly onProblem: Event<string> = this.problems.event;
  private id: string | null = null;
  private mirror: PreviewMirror | null = null;
  /** The mirror and our listeners on it. */
  private readonly held = new MutableDisposable<DisposableStore>();
  private shown: PreviewScreen | null = null;
  private stale = false;

  constructor(private readonly d: FeedPreviewDeps) {}

  /** Whether the preview follows session `id`. */
  follows(id: string): boolean {
    return id === this.id;
  }

  get screen(): PreviewScreen | null {
    if (this.stale) {
      this.shown = this.mirror?.screen() ?? null;
      this.stale = false;
    }
    return this.shown;
  }

  /** Follow session `id` from now on (null: none); `target` when the feed knows it already. */
  select(id: string | null, target: PreviewTarget | undefined): void {
    if (id === this.id) return;
    this.id = id;
    this.drop();
    if (target) this.update(target);
    this.markChanged();
  }

  /** The followed session is known (again), or changed (its size, its status): follow it as it is now. */
  update(t: PreviewTarget): void {
    if (t.id !== this.id) return;
    if (t.live && this.mirror?.isFinal) {
      // Taken for lost (a runner that slept with the machine) and back: follow it live again.
      this.drop();
    }
    this.mirror ??= this.newMirror(t.id);
    if (t.live) {
      this.mirror.live();
      this.mirror.fit(t.cols, t.rows);
    } else {
      this.mirror.showFinal(t.finalCols, t.finalRows);
    }
  }

  /** The session is known for the first time: follow it unless already on it. */
  appeared(t: PreviewTarget): void {
    if (t.id === this.id && !this.mirror) this.update(t);
  }

  /** The session is gone from the home: nothing to show any more. */
  gone(id: string): void {
    if (id !== this.id || !this.mirror) return;
    this.drop();
    this.markChanged();
  }

  dispose(): void {
    this.held.dispose();
    this.mirror = null;
    this.changes.dispose();
    this.problems.dispose();
  }

  private markChanged(): void {
    this.stale = true;
    this.changes.fire();
  }

  private newMirror(id: string): PreviewMirror {
    const { open, readFinal } = this.d;
    const mirror = new PreviewMirror(this.d.home, id, this.d.time, open && ((owner) => open(id, owner)), readFinal && (() => readFinal(id)));
    const held = (this.held.value = new DisposableStore());
    held.add(mirror);
    held.add(mirror.onChange(() => this.markChanged()));
    held.add(mirror.onError((detail) => this.problems.fire(detail)));
    return mirror;
  }

  private drop(): void {
    this.held.clear();
    this.mirror = null;
  }
}
