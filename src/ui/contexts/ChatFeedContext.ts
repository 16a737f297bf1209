import { createContext, useContext } from 'react';
import { NONE } from '../../core/lifetime.js';
import type { ChatFeed } from '../../client/feed/board-api.js';

/** A chat feed with no rooms: the board drawn without chat (benchmarks, tests that do not look at it). */
export const NO_CHAT: ChatFeed = {
  pausedRooms: [],
  chat: null,
  watchRooms: () => undefined,
  openRoom: () => undefined,
  onChange: () => NONE,
  dispose: () => undefined,
};

/** The rooms' chat: the real feed, a test's fake, or none. */
export const ChatFeedContext = createContext<ChatFeed>(NO_CHAT);

export function useChatFeedSource(): ChatFeed {
  return useContext(ChatFeedContext);
}
