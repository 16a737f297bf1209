import { useEffect } from 'react';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useNoticesSource } from '../contexts/NoticesContext.js';

/**
 * Marks the rows the notifier rang for and shows its messages. (The board's
 * dispatch tells the notifier which rows are still marked.)
 */
export function useNotices(): void {
  const notices = useNoticesSource();
  const { dispatch } = useBoardState();
  useEffect(() => {
    const listening = notices.onNotice((n) => {
      if (n.kind === 'attention') dispatch({ type: 'attention', ids: n.ids });
      else dispatch({ type: 'message', text: n.text, error: n.error });
    });
    return () => listening.dispose();
  }, [notices, dispatch]);
}
