/**
 * Counts the renders of the board's parts, for the tests and the benchmark that check that one
 * session's change builds one row (src/ui/components/SessionList.tsx). None by default: a render
 * then costs one context read.
 */
import { createContext, useContext } from 'react';

export interface RenderCounter {
  /** `part` rendered (a session row: 'row', with the session's id). */
  rendered(part: string, id?: string): void;
}

export const RenderCountContext = createContext<RenderCounter | null>(null);

/** Tells the counter, if any, that the calling component is rendering. */
export function useCountRender(part: string, id?: string): void {
  useContext(RenderCountContext)?.rendered(part, id);
}
