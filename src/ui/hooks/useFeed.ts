import type { PreviewScreen } from '../board-api.js';
import type { SessionView } from '../../state/host-store.js';
import { useFeedVersion } from './useFeedVersion.js';
import { useFeedSource } from '../contexts/FeedContext.js';

export interface FeedView {
  /** Goes up on every change the feed reports (the feed may hand out new arrays each time). */
  version: number;
  sessions: readonly SessionView[];
  preview: PreviewScreen | null;
}

/** The feed's sessions and preview, re-rendering the caller whenever the feed says they changed. */
export function useFeed(): FeedView {
  const feed = useFeedSource();
  const version = useFeedVersion(feed);
  return { version, sessions: feed.sessions, preview: feed.preview };
}
