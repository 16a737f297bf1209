/** The board's root component: its state, the contexts the components read, and the wiring of keys and feed. */
import { useApp } from 'ink';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { boardReducer, initialBoardState } from '../core/board/board-state.js';
import type { BoardAction, BoardState, NewFields } from '../core/board/board-types.js';
import { DEFAULT_DETACH_KEY, parseDetachKey, type DetachKey } from '../core/terminal/detach-key.js';
import { App } from './App.js';
import type { BoardActions, BoardFeed, BoardNotices, ChatFeed } from '../client/board-api.js';
import type { Time } from '../core/clock.js';
import { ActionsContext, type BoardControl, type LeaveRequest } from './contexts/ActionsContext.js';
import { BoardStateContext } from './contexts/BoardStateContext.js';
import { ChatFeedContext, NO_CHAT } from './contexts/ChatFeedContext.js';
import { FeedContext, FeedVersionContext } from './contexts/FeedContext.js';
import { NO_NOTICES, NoticesContext } from './contexts/NoticesContext.js';
import { TimeContext } from './contexts/TimeContext.js';
import { useAutoRevive } from './hooks/useAutoRevive.js';
import { useBoardKeys } from './hooks/useBoardKeys.js';
import { useChatSync } from './hooks/useChatSync.js';
import { useFeedErrors } from './hooks/useFeedErrors.js';
import { useFeedSync } from './hooks/useFeedSync.js';
import { useFeedUpdates } from './hooks/useFeedUpdates.js';
import { useNotices } from './hooks/useNotices.js';
import './ink-frame-cache.js'; // before anything is drawn: Ink's frame built from the rows that changed
import { useRawInput } from './ink-internals.js';
import { SessionKeys } from '../client/board-actions/session-keys.js';

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
  /** The state to start from: the one the board left with, when it comes back from an attach. */
  initialState?: BoardState;
  /**
   * The board is done (Ink exits right after). `state` is what to come back
   * to; `typeahead`, keys typed after the Enter that attaches, for the session.
   */
  onLeave(req: LeaveRequest, state: BoardState, typeahead: string): void;
  /** The board was asked to leave, at the key, a tick and a render before onLeave: an attach starts connecting now. */
  onLeaving?(req: LeaveRequest): void;
  /** Remembers that the demo's walkthrough line was hidden (src/state/demo-state.ts). */
  rememberWalkthroughHidden?(): void;
}

/** The board: its state, the contexts the components read, and the wiring (keys, feed). */
const DEFAULT_KEY = (parseDetachKey(DEFAULT_DETACH_KEY) as { ok: true; key: DetachKey }).key;

export function Board({ feed, chat, notices, actions, time, newDefaults, detachLabel, detachKey = DEFAULT_KEY, autoRevive, initialState, onLeave, onLeaving, rememberWalkthroughHidden }: BoardProps) {
  const [state, reactDispatch] = useReducer(boardReducer, initialState ?? initialBoardState());
  const { exit } = useApp();
  const rawInput = useRawInput();
  // The same reducer run ahead of React: React's state once it renders, plus whatever came since.
  const latest = useRef(state);
  latest.current = state;
  const noticesRef = useRef(notices);
  noticesRef.current = notices;
  const dispatch = useCallback((a: BoardAction) => {
    const before = latest.current;
    latest.current = boardReducer(before, a);
    // The notifier hears at once which rows are still marked: one the user just looked at may ring again.
    if (latest.current.attention !== before.attention) noticesRef.current?.unseen(latest.current.attention);
    reactDispatch(a);
  }, []);
  const getState = useCallback(() => latest.current, []);
  const feedVersion = useFeedUpdates(feed, dispatch);
  const left = useRef(false);
  const typed = useRef('');
  // The keys connection lives as long as this rendering of the board.
  const keys = useMemo(() => new SessionKeys((s) => actions.openInput(s)), [actions]);
  useEffect(() => () => keys.dispose(), [keys]);
  const control = useMemo<BoardControl>(
    () => ({
      actions,
      newDefaults,
      detachLabel,
      detachKey,
      keys,
      autoRevive,
      rememberWalkthroughHidden,
      hasLeft: () => left.current,
      typeahead(raw) {
        typed.current += raw;
      },
      leave(req: LeaveRequest) {
        if (left.current) return;
        left.current = true;
        onLeaving?.(req);
        // Ink is still handing out what it read with this key: keep it for the
        // session (raw, as Ink's parser cut it), and go once it is through.
        const keep = (raw: string) => {
          typed.current += raw;
        };
        const stop = rawInput?.listen(keep);
        // One tick, and it always runs (the board is leaving): nothing to hold on to.
        time.scheduler.setTimeout(() => {
          stop?.dispose();
          if (req.kind === 'attach') {
            // The attach clears the screen: Ink's last frame of the whole board (drawn again
            // as it unmounts) would only delay it, so the board draws nothing first and goes
            // once that is committed (the layout effect below).
            setLeaving(req);
            return;
          }
          onLeave(req, latest.current, '');
          exit();
        }, 0);
      },
    }),
    [actions, time, newDefaults, detachLabel, detachKey, keys, autoRevive, rememberWalkthroughHidden, onLeave, onLeaving, exit, rawInput],
  );
  const [leaving, setLeaving] = useState<LeaveRequest | null>(null);
  useLayoutEffect(() => {
    if (!leaving) return;
    onLeave(leaving, latest.current, typed.current);
    exit();
  }, [leaving, onLeave, exit]);
  const store = useMemo(() => ({ state, dispatch, getState }), [state, dispatch, getState]);
  return (
    <TimeContext.Provider value={time}>
    <FeedContext.Provider value={feed}>
      <FeedVersionContext.Provider value={feedVersion}>
        <ChatFeedContext.Provider value={chat ?? NO_CHAT}>
          <NoticesContext.Provider value={notices ?? NO_NOTICES}>
            <ActionsContext.Provider value={control}>
              <BoardStateContext.Provider value={store}>
                {leaving ? null : (
                  <>
                    <Wiring />
                    <App />
                  </>
                )}
              </BoardStateContext.Provider>
            </ActionsContext.Provider>
          </NoticesContext.Provider>
        </ChatFeedContext.Provider>
      </FeedVersionContext.Provider>
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
