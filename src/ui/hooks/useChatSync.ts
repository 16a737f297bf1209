import { useEffect } from 'react';
import { roomOf } from '../../core/chat/chat.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useChatFeedSource } from '../contexts/ChatFeedContext.js';

/**
 * Tells the chat feed which rooms matter: those of the sessions on the board
 * (for the paused banner) and the room of the open chat pane (its messages).
 */
export function useChatSync(): void {
  const chat = useChatFeedSource();
  const { state, sessions } = useBoardState();
  // A string, so the effect runs when the set of rooms changes, not on every new session list.
  const rooms = [...new Set(sessions.map(roomOf))].sort().join('\n');
  useEffect(() => {
    chat.watchRooms(rooms ? rooms.split('\n') : []);
  }, [chat, rooms]);
  const open = state.overlay.kind === 'chat' ? state.overlay.room : null;
  useEffect(() => {
    chat.openRoom(open);
  }, [chat, open]);
}
