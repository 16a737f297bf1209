/**
 * The board's store: its state over the feed's session list, run ahead of React's renders, and
 * the contexts that hand it out (BoardStateContext, FeedVersionContext). The list is the feed's
 * (src/client/feed/board-feed.ts owns it): the store keeps the one it last read, the very array, and
 * the state (selection, filter, marks, what is open: each by session id) settled against it.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { boardReducer, sessionsChanged } from '../core/board/board-state.js';
import type { BoardAction, BoardView } from '../core/board/board-types.js';
import type { SessionView } from '../state/host-store.js';
import { BoardStateContext, type BoardStore } from './contexts/BoardStateContext.js';
import { FeedVersionContext, useFeedSource } from './contexts/FeedContext.js';
import { useNoticesSource } from './contexts/NoticesContext.js';
import { useFeedUpdates } from './hooks/useFeedUpdates.js';

type View = BoardView<SessionView>;

/** `view` over `sessions`: the selection stays on its session, marks go with theirs. */
function over(view: View, sessions: readonly SessionView[]): View {
  return sessions === view.sessions ? view : { sessions, state: sessionsChanged(view.state, view.sessions, sessions) };
}

export function BoardStoreProvider({ initial, children }: { initial: View; children: ReactNode }) {
  const feed = useFeedSource();
  const notices = useNoticesSource();
  const noticesRef = useRef(notices);
  noticesRef.current = notices;
  // From the first render, over the feed's list as it is: no empty frame first, and a command run
  // on mount (autoRevive) sees the sessions.
  const [view, setView] = useState(() => over(initial, feed.sessions));
  // The same reducer run ahead of React: every action and list so far, rendered or not.
  const latest = useRef(view);
  const commit = useCallback((next: View) => {
    const before = latest.current;
    if (next.state === before.state && next.sessions === before.sessions) return;
    latest.current = next;
    // The notifier hears at once which rows are still marked: one the user just looked at may ring again.
    if (next.state.attention !== before.state.attention) noticesRef.current.unseen(next.state.attention);
    setView(next);
  }, []);
  useEffect(() => {
    // The first view's marks, when a session went while the board was away (an attach).
    if (latest.current.state.attention !== initial.state.attention) noticesRef.current.unseen(latest.current.state.attention);
    // On mount only: later changes go through commit.
  }, []);
  const dispatch = useCallback((a: BoardAction) => {
    const v = latest.current;
    commit({ sessions: v.sessions, state: boardReducer(v.state, a, v.sessions) });
  }, [commit]);
  const listChanged = useCallback((sessions: readonly SessionView[]) => commit(over(latest.current, sessions)), [commit]);
  const getView = useCallback(() => latest.current, []);
  const getState = useCallback(() => latest.current.state, []);
  const version = useFeedUpdates(listChanged, () => latest.current.sessions);
  const store = useMemo<BoardStore>(() => ({ state: view.state, sessions: view.sessions, dispatch, getView, getState }), [view, dispatch, getView, getState]);
  return (
    <FeedVersionContext.Provider value={version}>
      <BoardStateContext.Provider value={store}>{children}</BoardStateContext.Provider>
    </FeedVersionContext.Provider>
  );
}
