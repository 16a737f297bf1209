/**
 * The detach key, told by the attach itself: a client that asks (`subscribe_terminal.hint`) gets
 * a one-line note over its frames (the frame painter's overlay, src/runner/model/snapshot-frame.ts) for
 * its first few seconds, then a fresh exact frame without it. For that client only: the others,
 * the model and the snapshots of anyone else never see it.
 *
 * The program may draw over the note (the attach's jiggle makes it redraw at once): while the
 * note is due, the client's frame is made again, with the note, once the program's output pauses.
 * At the end, or at the client's first key, one more frame without it: the same path as a client
 * that fell behind (a snapshot at a chunk boundary, in a synchronized update).
 */
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { ClientConn } from '../clients/client-conn.js';

/** How long the note stays when the user types nothing. */
export const HINT_MS = 4000;
/** The output paused this long: the note is drawn again over what the program drew. */
export const HINT_REPAINT_QUIET_MS = 50;
/** ...or at the latest this long after the output that covered it, while output flows. */
export const HINT_REPAINT_MAX_MS = 300;
/** At most this many characters of the client's text are drawn (one line). */
export const HINT_MAX_CHARS = 60;

/** The client's text, drawable: no control characters, one line, at most HINT_MAX_CHARS. */
export function hintText(text: string): string {
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')].slice(0, HINT_MAX_CHARS).join('');
}

export interface HintDeps {
  scheduler: Scheduler;
  /** A fresh frame for the client, with the note or without it. */
  frame(c: ClientConn, overlay: string | undefined): void;
}

export class AttachHint implements Disposable {
  private readonly store = new DisposableStore();
  private readonly repaint = this.store.add(new MutableDisposable());
  private readonly latest = this.store.add(new MutableDisposable());
  private done = false;

  constructor(
    private readonly c: ClientConn,
    readonly text: string,
    private readonly d: HintDeps,
  ) {
    this.store.add(d.scheduler.setTimeout(() => this.end(), HINT_MS));
  }

  /** Whether the note is still due: the client's frames carry it. */
  get showing(): boolean {
    return !this.done;
  }

  /** The program printed to this client: the note may be covered; drawn again when the output pauses. */
  output(): void {
    if (this.done) return;
    this.repaint.value = this.d.scheduler.setTimeout(() => this.draw(), HINT_REPAINT_QUIET_MS);
    this.latest.value ??= this.d.scheduler.setTimeout(() => this.draw(), HINT_REPAINT_MAX_MS);
  }

  /** The client typed: it knows its way; the note goes. */
  key(): void {
    this.end();
  }

  dispose(): void {
    this.done = true;
    this.store.dispose();
  }

  private draw(): void {
    this.repaint.clear();
    this.latest.clear();
    if (!this.done && this.c.stream === 'live' && !this.c.closed) this.d.frame(this.c, this.text);
  }

  private end(): void {
    if (this.done) return;
    this.dispose();
    // A client not live gets its next frame anyway (a snapshot under way, or a laggard's), without the note.
    if (this.c.stream === 'live' && !this.c.closed) this.d.frame(this.c, undefined);
  }
}
