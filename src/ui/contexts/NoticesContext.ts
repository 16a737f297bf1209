import { createContext, useContext } from 'react';
import { NONE } from '../../core/lifetime.js';
import type { BoardNotices } from '../../client/feed/board-api.js';

/** A board without a notifier (tests that do not look at notifications): nothing rings, nothing is marked. */
export const NO_NOTICES: BoardNotices = {
  onNotice: () => NONE,
  unseen: () => undefined,
};

/** The notifier's marks and messages: the real one, or none. */
export const NoticesContext = createContext<BoardNotices>(NO_NOTICES);

export function useNoticesSource(): BoardNotices {
  return useContext(NoticesContext);
}
