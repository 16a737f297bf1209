/** The board feed's sessions and preview, for the components that draw them. */
import { useContext } from 'react';
import type { PreviewScreen } from '../../client/board-api.js';
import type { SessionView } from '../../state/host-store.js';
import { FeedVersionContext, useFeedSource } from '../contexts/FeedContext.js';

export interface FeedView {
  /** Goes up on every change of the preview (a new session list is a new board state instead). */
  version: number;
  sessions: readonly SessionView[];
  preview: PreviewScreen | null;
  /** The board's --host: a line for each machine that cannot be reached now. */
  hostLines: readonly string[] | undefined;
}

/** The feed's sessions and preview as of this render; the board re-renders on every change (useFeedUpdates). */
export function useFeed(): FeedView {
  const feed = useFeedSource();
  const version = useContext(FeedVersionContext);
  return { version, sessions: feed.sessions, preview: feed.preview, hostLines: feed.hostLines };
}
