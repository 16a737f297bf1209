import { useEffect } from 'react';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useFeedSource } from '../contexts/FeedContext.js';

/** Keeps the feed's preview on the selection. (The feed's changes come in through useFeedUpdates.) */
export function useFeedSync(): void {
  const feed = useFeedSource();
  const { state } = useBoardState();
  useEffect(() => {
    feed.setPreview(state.selectedId);
  }, [feed, state.selectedId]);
}
