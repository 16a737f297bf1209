import { useEffect, useState } from 'react';
import type { RoomChat } from '../board-api.js';
import { useChatFeedSource } from '../contexts/ChatFeedContext.js';

export interface ChatView {
  /** Goes up on every change the feed reports. */
  version: number;
  pausedRooms: readonly string[];
  chat: RoomChat | null;
}

/** The chat feed's paused rooms and open room, re-rendering the caller whenever the feed says they changed. */
export function useChatFeed(): ChatView {
  const feed = useChatFeedSource();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = feed.subscribe(bump);
    bump(); // a change between the first render and the subscription
    return off;
  }, [feed]);
  return { version, pausedRooms: feed.pausedRooms, chat: feed.chat };
}
