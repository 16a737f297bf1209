/** The board's notifier: rings, the notify command and the row marks, for as long as the board runs. */
import { runNotifyCommand } from '../client/feed/notify-command.js';
import { BufferedEmitter, type Disposable, type Event } from '../core/lifetime.js';
import { notifyCommandEnv, oscNotifyFor, ringSequence, type OscNotify, type StateChange } from '../core/board/notify.js';
import type { NoticeText } from '../core/board/notice-text.js';
import type { Time } from '../core/clock.js';
import { FeedNotices } from '../client/notify/feed-notices.js';
import { NoticeTexts } from '../client/notify/notice-texts.js';
import type { WaitingQuestions } from '../client/notify/waiting-questions.js';
import type { BoardFeed, BoardNotices, Notice } from '../client/feed/board-api.js';

export interface BoardNotifierOptions {
  feed: BoardFeed;
  /** Writes a ring to the terminal (through the RingGate). */
  ring(seq: string): void;
  /** The board's environment: which terminal it is (OSC 9 or 777), and what the notify command inherits. */
  env: NodeJS.ProcessEnv;
  /** `--notify-cmd`: run through the shell for every change that rings. */
  notifyCmd?: string;
  /** How the notify command runs; tests may pass their own. */
  run?: typeof runNotifyCommand;
  /** The waiting sessions' questions, for what a notification says (without them: the last line). */
  questions?: WaitingQuestions;
  /** How long a waiting session's notification waits for its question. */
  time: Time;
}

/**
 * Follows the sessions' states for as long as the board runs, attaches
 * included (it listens to the feed, not to the board), and when one turns
 * to waiting or from busy to idle (the rule and its exceptions: src/core/board/notify.ts):
 * has the board mark the row, and rings the terminal and runs the notify
 * command with the notification's text (src/core/board/notice-text.ts), a
 * waiting session's once its question is read (src/client/notify/notice-texts.ts).
 * It looks when the feed says something changed.
 */
export class BoardNotifier implements BoardNotices, Disposable {
  private readonly osc: OscNotify;
  /** Notices nobody heard yet (the board is away while an attach runs) go to the next listener. */
  private readonly notices = new BufferedEmitter<Notice>();
  private readonly feedNotices: FeedNotices;
  private failureSaid = false;
  private readonly texts: NoticeTexts;

  constructor(private readonly o: BoardNotifierOptions) {
    this.osc = oscNotifyFor(o.env);
    this.texts = new NoticeTexts({ feed: o.feed, questions: o.questions, time: o.time });
    this.feedNotices = new FeedNotices(o.feed, (changes) => this.rang(changes));
  }

  /** The session the board is attached to (null: back on the board): the user is looking at it. */
  attached(id: string | null): void {
    this.feedNotices.look(); // what happened before the attach still counts
    this.feedNotices.watch.attached = id;
  }

  /** Notices from now on, those held while nobody listened (an attach) first. */
  readonly onNotice: Event<Notice> = this.notices.event;

  /** A line for the footer from elsewhere on the board (the board log that cannot be written), held while nobody listens. */
  say(text: string, error: boolean): void {
    this.tell({ kind: 'message', text, error });
  }

  unseen(ids: readonly string[]): void {
    this.feedNotices.watch.setUnseen(ids);
  }

  dispose(): void {
    this.feedNotices.dispose();
    this.texts.dispose();
    this.notices.dispose();
  }

  private rang(changes: StateChange[]): void {
    if (changes.length === 0) return;
    this.tell({ kind: 'attention', ids: changes.map((c) => c.id) });
    // The ring says why: a waiting session's question, once read off its screen (a moment later).
    this.texts.compose(changes, (texts) => {
      this.o.ring(ringSequence(texts, this.osc));
      if (this.o.notifyCmd) changes.forEach((c, i) => this.runCommand(this.o.notifyCmd!, c, texts[i]!));
    });
  }

  private runCommand(cmd: string, c: StateChange, text: NoticeText): void {
    const onFail = (why: string) => {
      if (this.failureSaid) return;
      this.failureSaid = true; // once: a broken command would say it at every ring
      this.tell({ kind: 'message', text: `--notify-cmd failed (${why}); not said again`, error: true });
    };
    (this.o.run ?? runNotifyCommand)(cmd, { ...this.o.env, ...notifyCommandEnv(c, text) }, onFail, [text.title, text.body]);
  }

  private tell(n: Notice): void {
    this.notices.fire(n);
  }
}
