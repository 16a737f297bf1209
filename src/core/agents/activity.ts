import { decideActivity } from './activity-layers.js';

/**
 * What a session is doing, for people (the board, `ls`, notifications) and
 * for the wake dispatcher. Layered: the best source that has spoken recently
 * wins (the agent's own hooks, then its window title, then its screen, then
 * raw byte activity). Pure types and the layering rule; the detectors are in
 * src/core/agents/status-detectors.ts, the runner keeps the current value.
 */

export type Activity =
  | 'starting' // launched, nothing recognisable yet
  | 'busy' // working on a turn
  | 'idle' // at its prompt, ready for input
  | 'waiting'; // needs the user: a dialog, a permission question, a sign-in menu

/** Where a reading came from, best first. */
export type ActivitySource = 'hook' | 'title' | 'screen' | 'bytes';

export interface ActivityReading {
  activity: Activity;
  source: ActivitySource;
  /** Clock ms when the source said so. */
  at: number;
}

/**
 * A source's reading after it looked again: the same object while it says
 * the same thing (so `at` stays the time it started saying it), a new one
 * when it changes, null when it says nothing.
 */
export function nextReading(prev: ActivityReading | null, activity: Activity | null, source: ActivitySource, at: number): ActivityReading | null {
  if (activity === null) return null;
  if (prev !== null && prev.activity === activity && prev.source === source) return prev;
  return { activity, source, at };
}

/**
 * The layered reading of a set of readings (the newest of each source), by
 * the one rule in activity-layers.ts.
 */
export function layer(readings: readonly (ActivityReading | null | undefined)[]): ActivityReading | null {
  const newest = new Map<ActivitySource, ActivityReading>();
  for (const r of readings) {
    if (!r) continue;
    const had = newest.get(r.source);
    if (!had || r.at > had.at) newest.set(r.source, r);
  }
  return decideActivity([...newest.values()])?.reading ?? null;
}
