import { useEffect, useState } from 'react';
import type { PreviewScreen } from '../board-api.js';
import type { SessionView } from '../../state/host-store.js';
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
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = feed.subscribe(bump);
    bump(); // a change between the first render and the subscription
    return off;
  }, [feed]);
  return { version, sessions: feed.sessions, preview: feed.preview };
}
