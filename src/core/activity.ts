import { layerActivity } from './activity-layers.js';

/**
 * What a session is doing, for people (the board, `ls`, notifications) and
 * for the wake dispatcher. Layered: the best source that has spoken recently
 * wins (the agent's own hooks, then its window title, then its screen, then
 * raw byte activity). Pure types and the layering rule; the detectors are in
 * src/core/status-detectors.ts, the runner keeps the current value.
 */

export type Activity =
  | 'starting' // launched, nothing recognisable yet
  | 'busy' // working on a turn
  | 'idle' // at its prompt, ready for input
  | 'waiting'; // needs the user: a dialog, a permission question, a sign-in menu

/** Where a reading came from, best first. */
export type ActivitySource = 'hook' | 'title' | 'screen' | 'bytes';

export const SOURCE_RANK: Readonly<Record<ActivitySource, number>> = Object.freeze({ hook: 3, title: 2, screen: 1, bytes: 0 });

export interface ActivityReading {
  activity: Activity;
  source: ActivitySource;
  /** Clock ms when the source said so. */
  at: number;
}

/** What the host record carries (file-formats.md): the layered result. */
export interface ActivityStatus {
  activity: Activity;
  source: ActivitySource;
  /** ISO time the activity last changed. */
  since: string;
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
 * the rule in activity-layers.ts: the best source that says something wins,
 * unless a lesser one changed clearly later, and a `waiting` that came up
 * after the winner last changed beats it. Titles never say waiting: Gemini's
 * reads `◇ Ready` under its trust dialog and Claude Code sets none under its
 * API-key dialog (test/fixtures/recordings), so a dialog seen on the screen
 * since then is news the title does not carry. A dialog older than the
 * winner's reading is not: Claude's title turns idle a frame before the
 * answered dialog is erased.
 */
export function layer(readings: readonly (ActivityReading | null | undefined)[]): ActivityReading | null {
  const newest = new Map<ActivitySource, ActivityReading>();
  for (const r of readings) {
    if (!r) continue;
    const had = newest.get(r.source);
    if (!had || r.at > had.at) newest.set(r.source, r);
  }
  const picked = layerActivity([...newest.values()].map((r) => ({ source: r.source, activity: r.activity, changedAt: r.at })));
  return picked ? newest.get(picked.source)! : null;
}
