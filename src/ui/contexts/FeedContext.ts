import { createContext, useContext } from 'react';
import type { BoardFeed } from '../../client/feed/board-api.js';

/** The live sessions and preview: the real feed, or a test's fake. */
export const FeedContext = createContext<BoardFeed | null>(null);

/** Goes up whenever the feed's preview changes (src/ui/hooks/useFeedUpdates.ts). */
export const FeedVersionContext = createContext(0);

export function useFeedSource(): BoardFeed {
  const feed = useContext(FeedContext);
  if (!feed) throw new Error('FeedContext is missing: render the board through <Board>, which provides it');
  return feed;
}
