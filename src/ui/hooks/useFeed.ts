/** The board feed's preview and host lines, for the components that draw them (the sessions are the store's: useBoardState). */
import { useContext } from 'react';
import type { PreviewScreen } from '../../client/feed/board-api.js';
import { FeedVersionContext, useFeedSource } from '../contexts/FeedContext.js';

export interface FeedView {
  /** Goes up on every change of the preview (a new session list is a new board view instead). */
  version: number;
  preview: PreviewScreen | null;
  /** The board's --host: a line for each machine that cannot be reached now. */
  hostLines: readonly string[] | undefined;
}

/** The feed's preview as of this render; the board re-renders on every change (useFeedUpdates). */
export function useFeed(): FeedView {
  const feed = useFeedSource();
  const version = useContext(FeedVersionContext);
  return { version, preview: feed.preview, hostLines: feed.hostLines };
}
