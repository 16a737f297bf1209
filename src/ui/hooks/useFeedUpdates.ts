import { useEffect, useRef, useState } from 'react';
import type { BoardAction } from '../../core/board/board-types.js';
import type { BoardFeed } from '../../client/board-api.js';
import type { SessionView } from '../../state/host-store.js';

/**
 * The board's one subscription to the feed, and one state update per change
 * it reports: a new session list goes into the board state (the rows and the
 * header together), anything else (the preview) bumps the returned version.
 *
 * One update, because Ink draws every commit and then holds the next draw
 * back (src/ui/ink-options.ts): a second commit per change (a second
 * subscriber, or an effect that copies the list into the state) drew nothing
 * new first and the real change later, with the header behind the rows.
 */
export function useFeedUpdates(feed: BoardFeed, dispatch: (a: BoardAction) => void): number {
  const [version, setVersion] = useState(0);
  const last = useRef<readonly SessionView[] | null>(null);
  useEffect(() => {
    const changed = () => {
      if (feed.sessions !== last.current) {
        last.current = feed.sessions;
        dispatch({ type: 'sessions', sessions: feed.sessions });
      } else {
        setVersion((v) => v + 1);
      }
    };
    const off = feed.onChange(changed);
    changed(); // a change between the first render and the subscription
    return () => off.dispose();
  }, [feed, dispatch]);
  return version;
}
