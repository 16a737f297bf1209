import { useEffect } from 'react';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useFeedSource } from '../contexts/FeedContext.js';

/**
 * What went wrong inside the feed that a user should know, as one line in the footer (the
 * detail goes to the board log: src/ui/run-board.ts writes it). The board carries on.
 */
export function useFeedErrors(): void {
  const feed = useFeedSource();
  const { dispatch } = useBoardState();
  useEffect(() => {
    const listening = feed.onError((e) => {
      if (e.userMessage) dispatch({ type: 'message', text: e.userMessage, error: true });
    });
    return () => listening.dispose();
  }, [feed, dispatch]);
}
