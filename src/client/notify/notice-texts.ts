/**
 * The text of the notifications for changes that ring (src/core/board/notify.ts says which),
 * once what they say is known: a waiting session's question is read off its screen
 * (./waiting-questions.ts) a moment after the feed says it waits, so its notice waits for it, a
 * bounded time, and says the session's last line if the question is not there by then.
 */
import { noticeText, type NoticeText } from '../../core/board/notice-text.js';
import type { StateChange } from '../../core/board/notify.js';
import type { Time } from '../../core/clock.js';
import { DisposableStore, type Disposable } from '../../core/lifetime.js';
import type { BoardFeed } from '../feed/board-api.js';
import type { WaitingQuestions } from './waiting-questions.js';

/**
 * The longest a waiting session's notice waits for its question: the mirror connects, takes a
 * snapshot and lets the screen settle in tens of milliseconds on this machine, a few hundred over
 * ssh; past this a notice that comes late is worse than one that says the last line.
 */
export const QUESTION_WAIT_MS = 1000;

export interface NoticeTextsDeps {
  /** The sessions, for their last lines (SessionView.previewLine). */
  feed: BoardFeed;
  /** The questions; without them a waiting session's notice says its last line at once. */
  questions?: WaitingQuestions;
  time: Time;
  waitMs?: number;
}

export class NoticeTexts implements Disposable {
  private readonly pending = new DisposableStore();

  constructor(private readonly d: NoticeTextsDeps) {}

  /**
   * Calls `done` once with the text of each change, in order: at once when none waits for a
   * question (or all are read), else when the last question is read or the wait is over.
   */
  compose(changes: readonly StateChange[], done: (texts: NoticeText[]) => void): void {
    const { questions } = this.d;
    const waits = () => questions !== undefined && changes.some((c) => c.to === 'waiting' && questions.dialog(c.id) === null);
    if (!waits()) {
      done(this.texts(changes));
      return;
    }
    const held = this.pending.add(new DisposableStore());
    const finish = () => {
      if (held.isDisposed) return;
      this.pending.release(held);
      done(this.texts(changes));
    };
    held.add(questions!.onChange(() => {
      if (!waits()) finish();
    }));
    held.add(this.d.time.scheduler.setTimeout(finish, this.d.waitMs ?? QUESTION_WAIT_MS));
  }

  dispose(): void {
    this.pending.dispose();
  }

  private texts(changes: readonly StateChange[]): NoticeText[] {
    const sessions = this.d.feed.sessions;
    return changes.map((c) => {
      const s = sessions.find((x) => x.id === c.id);
      return noticeText(c, { dialog: this.d.questions?.dialog(c.id) ?? null, lastLine: s?.previewLine, limited: s?.limited, now: this.d.time.clock.now() });
    });
  }
}
