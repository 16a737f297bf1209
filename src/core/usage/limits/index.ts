/**
 * Whether an agent's screen says it hit a usage limit, and when that limit resets (issue 31,
 * item 4; docs/usage.md, "Carrying on after a limit"). Each kind's words are read by its own
 * detector (src/core/usage/limits/<kind>-limit.ts); this is the one entry the runner calls.
 *
 * This copy knows no kind yet: the per-kind detectors come with their own change, and until then
 * no screen reads as a limit (the runner's plumbing is tested with detectors of its own).
 */
import type { LimitSeen } from '../usage-types.js';

/** The limit `screenLines` (the screen's text, top to bottom) shows for an agent of `kind`, seen at `now` (ms), or null. */
export function limitSeen(kind: string, screenLines: readonly string[], now: number): LimitSeen | null {
  void kind;
  void screenLines;
  void now;
  return null;
}
