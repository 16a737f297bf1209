/**
 * The board's clock and timers, from its start (src/cli/open-board.ts) through <Board>: hooks read
 * them here (useNow's tick, the age columns), never the real time.
 */
import { createContext, useContext } from 'react';
import type { Time } from '../../core/clock.js';

export const TimeContext = createContext<Time | null>(null);

export function useTime(): Time {
  const time = useContext(TimeContext);
  if (!time) throw new Error('TimeContext is missing: render the board through <Board>, which provides it');
  return time;
}
