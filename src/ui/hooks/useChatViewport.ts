import { useEffect } from 'react';
import { useBoardState } from '../contexts/BoardStateContext.js';

/** Tells the state the chat log's rows on screen and its wrapped lines in all, for scrolling. */
export function useChatViewport(rows: number, lines: number): void {
  const { dispatch } = useBoardState();
  useEffect(() => {
    dispatch({ type: 'chat-viewport', rows, lines });
  }, [rows, lines, dispatch]);
}
