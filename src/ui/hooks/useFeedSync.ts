import { useEffect, useRef } from 'react';
import type { SessionView } from '../../state/host-store.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useFeedSource } from '../contexts/FeedContext.js';
import { useFeed } from './useFeed.js';

/** Keeps the board state's session list in step with the feed, and the feed's preview on the selection. */
export function useFeedSync(): void {
  const feed = useFeedSource();
  const { version } = useFeed();
  const { state, dispatch } = useBoardState();
  const last = useRef<readonly SessionView[] | null>(null);
  useEffect(() => {
    // Most changes are to the preview: the list only when it is a new one.
    if (feed.sessions === last.current) return;
    last.current = feed.sessions;
    dispatch({ type: 'sessions', sessions: feed.sessions });
  }, [version, feed, dispatch]);
  useEffect(() => {
    feed.setPreview(state.selectedId);
  }, [feed, state.selectedId]);
}
