import { useEffect, useRef, useState } from 'react';
import type { SessionView } from '../../state/host-store.js';
import { useFeedSource } from '../contexts/FeedContext.js';

/**
 * The board's one listener on the feed (from FeedContext), and one state update per change it
 * reports: a new session list goes to `listChanged` (the rows and the header change together),
 * anything else (the preview) bumps the returned version.
 *
 * One update, because Ink draws every commit and then holds the next draw
 * back (src/ui/ink/options.ts): a second commit per change (a second
 * listener, or an effect that copies the list into the state) drew nothing
 * new first and the real change later, with the header behind the rows.
 */
export function useFeedUpdates(listChanged: (sessions: readonly SessionView[]) => void, shown: () => readonly SessionView[]): number {
  const feed = useFeedSource();
  const [version, setVersion] = useState(0);
  const on = useRef({ listChanged, shown });
  on.current = { listChanged, shown };
  useEffect(() => {
    const changed = () => {
      if (feed.sessions !== on.current.shown()) on.current.listChanged(feed.sessions);
      else setVersion((v) => v + 1);
    };
    const off = feed.onChange(changed);
    changed(); // a change between the first render and the listening
    return () => off.dispose();
  }, [feed]);
  return version;
}
