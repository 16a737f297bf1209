import { useEffect, useState } from 'react';
import { useTime } from '../contexts/TimeContext.js';

/**
 * The time, moving on every `everyMs`: for "5s ago" columns. The caller picks
 * the step from what it shows (seconds only while some age is under a
 * minute), so an idle board does not redraw itself every second for nothing.
 */
export function useNow(everyMs = 1000): number {
  const { clock, scheduler } = useTime();
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const t = scheduler.setInterval(() => setNow(clock.now()), everyMs);
    return () => t.dispose();
  }, [everyMs, clock, scheduler]);
  return now;
}

/** How often an age column must move: each second under a minute old, each minute under an hour, else hourly. */
export function ageTickMs(youngestAgeMs: number): number {
  if (youngestAgeMs < 60_000) return 1000;
  if (youngestAgeMs < 3_600_000) return 60_000;
  return 3_600_000;
}
