/**
 * What an agent spent, as its own records say it (issue 31, docs/usage.md): tokens per message,
 * read from the agent's transcript (never from its screen), priced from data. Types only: each
 * kind's reader is src/core/usage/readers/<kind>-usage.ts, the prices src/core/usage/prices.ts.
 */

/** Tokens of one message, or a sum of them. `cacheWrite` and `cacheRead` are 0 for an agent that has no such split. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** One billed message of an agent, as its transcript records it. */
export interface UsageEntry {
  /** When the message was recorded (ISO), or null when the record has no time. */
  at: string | null;
  /** The model that answered, as the agent names it ('' when the record names none). */
  model: string;
  tokens: TokenCounts;
  /** The cost the agent itself recorded (pi does), in US dollars; absent: we price it. */
  costUsd?: number;
  /** The message's own id, when it has one: a message written twice (streamed, then final) counts once. */
  key?: string;
}

/**
 * Reads one kind's transcript. A line-based transcript (JSON Lines that only grow: all four agents'
 * today, Gemini's since 0.61) is read a line at a time, keeping what it needs between lines in
 * `state` (Codex's totals are cumulative); a whole-file transcript (rewritten on each turn) is read
 * whole when it changed.
 */
export type UsageReader =
  | { mode: 'lines'; initial(): unknown; line(text: string, state: unknown): UsageEntry[] | 'skip' }
  | { mode: 'whole'; file(text: string): UsageEntry[] | 'skip' };

/** A session's usage as the runner keeps it in host.json (`usage`), and as `ls`, the board and budgets read it. */
export interface SessionUsage {
  tokens: TokenCounts;
  /** Priced messages' cost in US dollars; null when no message could be priced. */
  costUsd: number | null;
  /** Models seen with no price (their tokens are counted, their cost is not guessed). */
  unpriced: string[];
  /** Models seen, in the order first seen. */
  models: string[];
  /** Messages counted. */
  messages: number;
  /** The transcript read (an absolute path), for `explain`. */
  file: string;
  /** Lines that could not be parsed, skipped (reported once). */
  skipped: number;
  /** When these figures were last brought up to date (ISO). */
  updatedAt: string;
}

/** A usage limit the agent said it hit (issue 31, item 4): the session's state is `limited` until `resetAt`. */
export interface LimitSeen {
  /** When the limit resets (ISO), or null when the agent did not say. */
  resetAt: string | null;
  /** The agent's own words, one line, for `explain` and the notification. */
  line: string;
  /**
   * The agent named the reset as a clock time, to the minute (`resets 12:28am`: Claude drops the
   * seconds of 12:28:45, Codex and Gemini too): `resetAt` is that minute's start, and the limit is
   * surely over only at its end, which is when resume-after-limit types. Absent for a wait counted
   * to the second (pi's `try again in 1h59m41s`).
   */
  resetToMinute?: true;
}
