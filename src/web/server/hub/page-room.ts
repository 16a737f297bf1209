/**
 * The room whose chat one page follows (`room`): its records as `chat` frames, again after every
 * change. With `HubDeps.roomChat` each page reads its room through a chat feed of its own (two
 * pages may follow two rooms); without it, through the shared `chat`, which holds one open room
 * at a time (the last page to ask), and a page hears only changes of its own room.
 */
import { DisposableStore, MutableDisposable, type Disposable } from '../../../core/lifetime.js';
import type { ChatFeed } from '../../../client/feed/board-api.js';
import type { HubDeps } from '../web-types.js';
import type { PageWire } from './page-wire.js';

/** The newest records a `chat` frame carries: a room's whole history is not worth a phone's link on every post. */
export const CHAT_RECORDS_SENT = 500;

export class PageRoom implements Disposable {
  private readonly held = new MutableDisposable<DisposableStore>();

  constructor(
    private readonly deps: Pick<HubDeps, 'chat' | 'roomChat'>,
    private readonly wire: PageWire,
  ) {}

  follow(room: string | null): void {
    this.held.clear();
    if (room === null) return;
    const store = (this.held.value = new DisposableStore());
    const feed: ChatFeed = this.deps.roomChat ? store.add(this.deps.roomChat()) : this.deps.chat;
    const tell = (): void => {
      const c = feed.chat;
      if (c?.room !== room) return;
      this.wire.send({ t: 'chat', room, records: c.records.slice(-CHAT_RECORDS_SENT), paused: c.paused });
    };
    store.add(feed.onChange(tell));
    feed.openRoom(room);
    tell();
  }

  dispose(): void {
    this.held.dispose();
  }
}
