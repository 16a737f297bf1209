/**
 * Why a session shows the state it shows: what `agent-board explain` prints
 * and the board's explain overlay draws. The runner builds it from its
 * tracker (src/runner/activity/activity-tracker.ts); the shapes are here so the
 * runner, the CLI and the board agree on them. Times are ms since the epoch.
 */
import type { Activity, ActivitySource } from './activity.js';

/** One layer's last reading. */
export interface LayerExplanation {
  source: ActivitySource;
  /** Whether the session's kind reads this layer at all. */
  used: boolean;
  /** What it says now (null: nothing). */
  activity: Activity | null;
  /** When it started saying that (null: never spoke). */
  at: number | null;
  /** The pattern that matched (title and screen layers), by name and the file that defines it. */
  rule?: { name: string; file: string };
  /** What the layer read: the title text, the hook event, the matched screen row. */
  evidence?: string;
}

export interface HookExplanation {
  /** Whether this session's program has our hooks wired in. */
  wired: boolean;
  /** Why not, or what to know (a program started by hand in a shell; Gemini refusing its settings file). */
  note?: string;
  lastEvent?: string;
  lastAt?: number;
  /** A turn began (input typed, the screen turned busy) and no hook came within it: the layers below decide. */
  silent?: boolean;
}

export interface StatusExplanation {
  /** The session's own kind (`new --agent`, or what `new -- <program>` was recognised as). */
  kind: string;
  /** The kind its status rules follow now: the foreground agent of a shell session, else `kind`. */
  effectiveKind: string;
  /** The foreground program, when a known agent runs in a shell session. */
  foreground?: { pid: number; command: string };
  activity: Activity | null;
  source: ActivitySource | null;
  /** When the shown state last changed. */
  since: number | null;
  /** The layering rule that picked the winner, in words (for example "a dialog on screen beats an idle title"). */
  decidedBy: string;
  layers: LayerExplanation[];
  hooks: HookExplanation;
  /** The rule files read (shipped, then the user's). */
  ruleFiles: string[];
  /** Entries of those files that were refused, one line each. */
  ruleErrors: string[];
}
