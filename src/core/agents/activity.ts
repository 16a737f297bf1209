/**
 * What a session is doing, for people (the board, `ls`, notifications) and
 * for the wake dispatcher. Layered: the best source that has spoken recently
 * wins (the agent's own hooks, then its window title, then its screen, then
 * raw byte activity). Types only: the layering rule is src/core/agents/activity-layers.ts,
 * the detectors are src/core/agents/status-detectors.ts, the runner keeps the current value.
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
  /**
   * Clock ms when the source last looked and still said so (the screen: its last check), if it
   * keeps that. A dialog still on screen a while after the title changed is not a stale frame.
   */
  seen?: number;
}
