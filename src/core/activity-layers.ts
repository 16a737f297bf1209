/**
 * Which reading of a session's activity to believe. The best source that has
 * spoken wins (hook, then title, then screen, then bytes), unless a lesser
 * source changed its mind clearly after it did: a Claude turn interrupted with
 * Esc fires no Stop hook, but its title turns idle, and a stale "busy" from
 * the hook must not stick forever.
 */
import { SOURCE_RANK, type Activity, type ActivitySource } from './activity.js';

/** How much later a lesser source must change to overrule a better one. */
export const OVERRULE_AFTER_MS = 1500;

export interface SourceReading {
  source: ActivitySource;
  activity: Activity;
  /** Clock ms when this source last changed its reading. */
  changedAt: number;
}

export function layerActivity(readings: readonly SourceReading[]): SourceReading | null {
  const ranked = [...readings].sort((a, b) => SOURCE_RANK[b.source] - SOURCE_RANK[a.source]);
  let pick: SourceReading | null = null;
  for (const r of ranked) {
    if (!pick || r.changedAt > pick.changedAt + OVERRULE_AFTER_MS) pick = r;
  }
  // A dialog that came up after the pick last changed wins at once: titles never say "waiting"
  // (Gemini's stays "◇ Ready" under its trust dialog), and typing into a dialog answers it.
  for (const r of ranked) {
    if (pick && r !== pick && r.activity === 'waiting' && pick.activity !== 'waiting' && r.changedAt > pick.changedAt) pick = r;
  }
  return pick;
}
