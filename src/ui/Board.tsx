/** The board's root component: the contexts the components read, the store, and the wiring of keys and feed. */
import { useState } from 'react';
import { initialBoardState } from '../core/board/board-state.js';
import type { BoardView, NewFields } from '../core/board/board-types.js';
import { DEFAULT_DETACH_KEY, parseDetachKey, type DetachKey } from '../core/terminal/detach-key.js';
import type { SessionView } from '../state/host-store.js';
import { App } from './App.js';
import type { BoardActions, BoardFeed, BoardNotices, ChatFeed } from '../client/feed/board-api.js';
import type { Time } from '../core/clock.js';
import { BoardControlProvider } from './BoardControl.js';
import { BoardStoreProvider } from './BoardStore.js';
import type { LeaveRequest } from './contexts/ActionsContext.js';
import { ChatFeedContext, NO_CHAT } from './contexts/ChatFeedContext.js';
import { FeedContext } from './contexts/FeedContext.js';
import { NO_NOTICES, NoticesContext } from './contexts/NoticesContext.js';
import { TimeContext } from './contexts/TimeContext.js';
import { useAutoRevive } from './hooks/useAutoRevive.js';
import { useBoardKeys } from './hooks/useBoardKeys.js';
import { useChatSync } from './hooks/useChatSync.js';
import { useFeedErrors } from './hooks/useFeedErrors.js';
import { useFeedSync } from './hooks/useFeedSync.js';
import { useNotices } from './hooks/useNotices.js';
import './ink/frame-cache.js'; // before anything is drawn: Ink's frame built from the rows that changed

export interface BoardProps {
  feed: BoardFeed;
  /** The rooms' chat (none: a board without the chat pane's data). */
  chat?: ChatFeed;
  /** Rows to mark when a session rings (none: nothing is marked). */
  notices?: BoardNotices;
  actions: BoardActions;
  /** The board's clock and timers (its start hands the real ones; hooks read them from TimeContext). */
  time: Time;
  newDefaults: NewFields;
  /** How the detach key is shown in the help. */
  detachLabel: string;
  /** The detach key, which also ends type-through (default Ctrl-\\). */
  detachKey?: DetachKey;
  /** Revive the sessions lost when it starts (config.json autoRevive), saying so; else R does. */
  autoRevive?: boolean;
  /** The board to start from: the one it left with, when it comes back from an attach. */
  initialView?: BoardView<SessionView>;
  /**
   * The board is done (Ink exits right after). `view` is what to come back
   * to; `typeahead`, keys typed after the Enter that attaches, for the session.
   */
  onLeave(req: LeaveRequest, view: BoardView<SessionView>, typeahead: string): void;
  /** The board was asked to leave, at the key, a tick and a render before onLeave: an attach starts connecting now. */
  onLeaving?(req: LeaveRequest): void;
  /** Remembers that the demo's walkthrough line was hidden (src/state/demo-state.ts). */
  rememberWalkthroughHidden?(): void;
}

const DEFAULT_KEY = (parseDetachKey(DEFAULT_DETACH_KEY) as { ok: true; key: DetachKey }).key;

/** The board: the contexts the components read (streams, state, actions: each its own), and the wiring (keys, feed). */
export function Board({ feed, chat, notices, actions, time, newDefaults, detachLabel, detachKey = DEFAULT_KEY, autoRevive, initialView, onLeave, onLeaving, rememberWalkthroughHidden }: BoardProps) {
  const [initial] = useState<BoardView<SessionView>>(() => initialView ?? { sessions: [], state: initialBoardState() });
  return (
    <TimeContext.Provider value={time}>
      <FeedContext.Provider value={feed}>
        <ChatFeedContext.Provider value={chat ?? NO_CHAT}>
          <NoticesContext.Provider value={notices ?? NO_NOTICES}>
            <BoardStoreProvider initial={initial}>
              <BoardControlProvider
                actions={actions}
                newDefaults={newDefaults}
                detachLabel={detachLabel}
                detachKey={detachKey}
                autoRevive={autoRevive}
                rememberWalkthroughHidden={rememberWalkthroughHidden}
                onLeave={onLeave}
                onLeaving={onLeaving}
              >
                <Wiring />
                <App />
              </BoardControlProvider>
            </BoardStoreProvider>
          </NoticesContext.Provider>
        </ChatFeedContext.Provider>
      </FeedContext.Provider>
    </TimeContext.Provider>
  );
}

/** Hooks that act rather than draw. */
function Wiring() {
  useFeedSync();
  useFeedErrors();
  useNotices(); // after the feed's sessions: a mark may be for a session the list just got
  useChatSync();
  useBoardKeys();
  useAutoRevive();
  return null;
}
