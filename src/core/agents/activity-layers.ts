/**
 * Which reading of a session's activity to believe: the one rule, used by
 * the runner's tracker (src/runner/activity/activity-tracker.ts) and by every test
 * that replays a recording. Readings carry explicit time stamps (when each
 * layer started saying what it says); readings taken in one check share one
 * time stamp, so rules, never the clock ticking between two reads, order
 * them. The rules, in the order they apply:
 *
 * 1. best-source: the best layer that says something wins (hook, then title,
 *    then screen, then bytes).
 * 2. later-contradiction: a lesser layer that changed to something else
 *    clearly later (OVERRULE_AFTER_MS) overrules it. A hook holds until the
 *    agent's next hook or such a signal: a Claude turn interrupted with Esc
 *    fires no Stop hook, but its title turns idle, and a hook that never
 *    fires must not leave a session busy forever. New work is news at once:
 *    a lesser layer turning busy after a hook said idle or waiting overrules
 *    it without the wait (Codex has no hook for a turn's start, and a turn
 *    begun within the wait would never be seen; a dialog answered is work
 *    again). The wait is for the other direction, where a lesser layer lags:
 *    the prompt box clears a moment after Claude's UserPromptSubmit.
 * 3. idle-screen-holds: bytes never overrule a screen that shows an idle
 *    prompt. Text typed but not sent is echoed, and a resize redraws the
 *    whole screen: bytes, but no work.
 * 4. dialog-wins: a dialog (`waiting`) that came up at or after the winner's
 *    time wins at once. Titles never say waiting (Gemini's reads `◇ Ready`
 *    under its trust dialog); read in the same check, the dialog is the news.
 *    A dialog older than the winner's reading is not: Claude's title turns
 *    idle a frame before the answered dialog is erased. Unless it is still on
 *    screen DIALOG_STALE_MS after an idle title changed (its `seen`): Gemini
 *    may set its `◇ Ready` title after its trust dialog is drawn, or again
 *    after a resize, and the dialog is still what the user has to answer.
 */
import type { Activity, ActivityReading, ActivitySource } from './activity.js';

/** How much later a lesser layer must change to overrule a better one. */
export const OVERRULE_AFTER_MS = 1500;

/**
 * How long after an idle title changed a dialog must still be on screen to beat it. Claude erases
 * an answered dialog one frame (about 40 ms) after its title turns idle; the runner looks at the
 * screen again SCREEN_CHECK_MS (250 ms) after the output that changed the title, so a dialog that
 * stays is seen past this.
 */
export const DIALOG_STALE_MS = 200;

export const SOURCE_RANK: Readonly<Record<ActivitySource, number>> = Object.freeze({ hook: 3, title: 2, screen: 1, bytes: 0 });

export type LayerRule = 'best-source' | 'later-contradiction' | 'idle-screen-holds' | 'dialog-wins';

/** What each rule means, for `explain`. */
export const LAYER_RULES: Readonly<Record<LayerRule, string>> = Object.freeze({
  'best-source': 'the best layer that has spoken wins',
  'later-contradiction': `a lesser layer changed its reading more than ${OVERRULE_AFTER_MS} ms after the better one did (or turned busy after a hook said idle or waiting), and overrules it`,
  'idle-screen-holds': 'the screen shows an idle prompt, so output bytes (typing, a redraw) are not work',
  'dialog-wins': `a dialog on screen since the last change of the other layers (or still there ${DIALOG_STALE_MS} ms after the title turned idle) beats them`,
});

export interface Decision {
  reading: ActivityReading;
  rule: LayerRule;
}

/** The layered reading of the newest reading of each layer (at most one per source). */
export function decideActivity(readings: readonly ActivityReading[]): Decision | null {
  const ranked = [...readings].sort((a, b) => SOURCE_RANK[b.source] - SOURCE_RANK[a.source]);
  const screen = ranked.find((r) => r.source === 'screen');
  let pick: ActivityReading | null = null;
  let rule: LayerRule = 'best-source';
  let held = false;
  for (const r of ranked) {
    if (!pick) {
      pick = r;
      continue;
    }
    const newWork = pick.source === 'hook' && pick.activity !== 'busy' && r.activity === 'busy';
    if (r.activity === pick.activity || r.at <= pick.at + (newWork ? 0 : OVERRULE_AFTER_MS)) continue;
    if (r.source === 'bytes' && r.activity === 'busy' && screen?.activity === 'idle') {
      held = true;
      continue;
    }
    pick = r;
    rule = 'later-contradiction';
  }
  if (!pick) return null;
  if (held && pick === screen) rule = 'idle-screen-holds';
  if (pick.activity !== 'waiting') {
    const won = pick;
    const current = (r: ActivityReading) => r.at >= won.at || (won.source === 'title' && won.activity === 'idle' && (r.seen ?? r.at) - won.at >= DIALOG_STALE_MS);
    const dialog = ranked.find((r) => r !== won && r.activity === 'waiting' && current(r));
    if (dialog) return { reading: dialog, rule: 'dialog-wins' };
  }
  return { reading: pick, rule };
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
 * the one rule above (decideActivity). The runner's tracker keeps its readings itself
 * (src/runner/activity/activity-tracker.ts); these two are the same steps for a replayed recording
 * (test/helpers/replay.ts).
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
