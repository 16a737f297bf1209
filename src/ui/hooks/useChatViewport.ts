import { useLayoutEffect } from 'react';
import { useBoardState } from '../contexts/BoardStateContext.js';

/**
 * Tells the state the chat log's rows on screen and its wrapped lines in all, for scrolling. In
 * the commit that draws them (a layout effect), so a key read right after the draw scrolls by them.
 */
export function useChatViewport(rows: number, lines: number): void {
  const { dispatch } = useBoardState();
  useLayoutEffect(() => {
    dispatch({ type: 'chat-viewport', rows, lines });
  }, [rows, lines, dispatch]);
}
