/** The chat feed's paused rooms and open room, for the components that draw them. */
import type { RoomChat } from '../../client/feed/board-api.js';
import { useFeedVersion } from './useFeedVersion.js';
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
  const version = useFeedVersion(feed.onChange);
  return { version, pausedRooms: feed.pausedRooms, chat: feed.chat };
}
