/**
 * A feed's sessions seen through the notification rule (src/core/board/notify.ts's NoticeWatch):
 * each new session list (not a preview's change) is looked at once, and the changes that ring
 * go to the owner. The one look of the terminal board's notifier (src/ui/board-notifier.ts) and
 * of the web's push side (src/web/server/push/push.ts); each keeps its own marks in `watch`.
 */
import { NoticeWatch, type StateChange } from '../../core/board/notify.js';
import type { Disposable } from '../../core/lifetime.js';
import { sessionState } from '../../core/session-state.js';
import type { SessionView } from '../../state/host-store.js';
import type { BoardFeed } from '../feed/board-api.js';

export class FeedNotices implements Disposable {
  readonly watch = new NoticeWatch();
  private lastList: readonly SessionView[] | null = null;
  private readonly offFeed: Disposable;

  /** `onLook` hears every new list's changes that ring, none included; the first look only remembers. */
  constructor(
    private readonly feed: BoardFeed,
    private readonly onLook: (changes: StateChange[]) => void,
  ) {
    this.offFeed = feed.onChange(() => this.look());
    this.look();
  }

  /** Looks now (a change of what the user looks at must not swallow one that came before it). */
  look(): void {
    const list = this.feed.sessions;
    if (list === this.lastList) return; // a preview change
    const first = this.lastList === null;
    this.lastList = list;
    const changes = this.watch.see(list.map((s) => ({ id: s.id, name: s.name, state: sessionState(s), source: s.activitySource, budget: s.budgetState })));
    if (!first) this.onLook(changes);
  }

  dispose(): void {
    this.offFeed.dispose();
  }
}
