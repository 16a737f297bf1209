/**
 * Judging a played-back session (playback.ts) against the labelled moments
 * (moments.ts) and measuring how fast its status follows the recording.
 *
 * What the runner must show at a moment: the moment's `runner` if it has one
 * (the runner has sources the in-process replay has not: bytes for pi), else
 * its `best`; for the `bytes` way (a forced shell) what bytes alone say:
 * busy while output came in the last 2 s, else idle. The runner reads title
 * and screen SCREEN_CHECK_MS after output, so a moment less than ALLOW_MS
 * after the transition into its state is right if the runner shows the
 * state at some instant up to ALLOW_MS after that transition; any other
 * moment is right only if the runner shows it at the moment itself.
 */
import type { Activity } from '../../src/core/agents/activity.js';
import type { Moment } from './moments.js';
import { wallOf, type Playback } from './playback.js';
import type { RecEvent } from './recordings.js';
import type { Replay } from './replay.js';

/** The runner's delays (src/runner/activity/activity-tracker.ts; kept here so a test does not load the runner). */
const SCREEN_CHECK_MS = 250;
const BYTES_IDLE_MS = 2000;
export const ALLOW_MS = 2 * SCREEN_CHECK_MS;

/** A reference state: from recording time `from` on, the runner should say `activity`. */
export interface Span {
  from: number;
  activity: Activity;
}

/** The layered best of the in-process replay, as spans (a source saying nothing leaves the state as it was, as in the runner). */
export function replaySpans(r: Replay): Span[] {
  const out: Span[] = [];
  for (const s of r.states) {
    const a = s.best?.activity;
    if (a && a !== out.at(-1)?.activity) out.push({ from: s.t, activity: a });
  }
  return out;
}

/** What bytes alone say over a recording: busy from an output after quiet, idle 2 s after the last one. */
export function bytesSpans(events: RecEvent[]): Span[] {
  const out: Span[] = [];
  let lastOut = -Infinity;
  for (const e of events) {
    if (e.o === undefined) continue;
    if (e.t - lastOut >= BYTES_IDLE_MS) {
      if (lastOut > -Infinity) out.push({ from: lastOut + BYTES_IDLE_MS, activity: 'idle' });
      out.push({ from: e.t, activity: 'busy' });
    }
    lastOut = e.t;
  }
  if (lastOut > -Infinity) out.push({ from: lastOut + BYTES_IDLE_MS, activity: 'idle' });
  return out;
}

const spanAt = (spans: Span[], t: number): Span | null => spans.filter((s) => s.from <= t).at(-1) ?? null;

export interface Verdict {
  moment: Moment;
  want: Activity | null;
  seen: Activity | null;
  ok: boolean;
  /** Recording time the reference entered the wanted state. */
  since: number | null;
  /** What the runner said around the moment (runnerAround). */
  around: string;
}

export function judgeMoments(p: Playback, moments: Moment[], ref: Span[]): Verdict[] {
  return moments
    .filter((m) => m.file === p.file)
    .map((m) => {
      const span = spanAt(ref, m.at);
      const want = p.way === 'bytes' ? (span?.activity ?? null) : (m.runner ?? m.best);
      const w = wallOf(p, m.at);
      const seen = p.timeline.activityAt(w);
      // The transition into `want`: the reference's, when it agrees with the table.
      const since = span && span.activity === want ? span.from : null;
      let ok = seen === want;
      if (!ok && want && since !== null && m.at - since < ALLOW_MS) ok = p.timeline.showsDuring(want, w, wallOf(p, since) + ALLOW_MS);
      return { moment: m, want, seen, ok, since, around: ok ? '' : runnerAround(p, m.at) };
    });
}

export interface Flip {
  /** Recording time of the event that made the transition. */
  t: number;
  activity: Activity;
  /** Ms from that event (wall clock) to the runner's change; null: the runner never made it in time. */
  latency: number | null;
}

/**
 * Every transition of the reference that lasts long enough to be seen
 * (ALLOW_MS), and when the runner made it: its first change into the state
 * from just before the event (the stand-in logs a write after making it) on,
 * before the reference moved on (plus ALLOW_MS). A runner that was in that
 * state already counts 0.
 */
export function flips(p: Playback, ref: Span[]): Flip[] {
  const out: Flip[] = [];
  const EARLY_MS = 50;
  for (let k = 0; k < ref.length; k++) {
    const s = ref[k]!;
    const next = ref[k + 1]?.from ?? Infinity;
    if (next - s.from < ALLOW_MS) continue;
    const w = wallOf(p, s.from);
    const until = Math.min(wallOf(p, Math.min(next, s.from + 5000)) + ALLOW_MS, w + 5000);
    if (p.timeline.activityAt(w - EARLY_MS) === s.activity) {
      out.push({ t: s.from, activity: s.activity, latency: 0 });
      continue;
    }
    const c = p.timeline.changes.find((x) => x.at > w - EARLY_MS && x.at <= until && x.activity === s.activity);
    out.push({ t: s.from, activity: s.activity, latency: c ? Math.max(0, c.at - w) : null });
  }
  return out;
}

export function percentile(xs: number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** Recording time of wall-clock `w` (the inverse of wallOf). */
export function recTimeOf(p: Playback, w: number): number {
  let t = w - p.start;
  for (const e of p.played) {
    if (e.w > w) break;
    t = e.t + (w - e.w);
  }
  return t;
}

/** The runner's changes around recording time `at`, in recording time, for a failure message. */
export function runnerAround(p: Playback, at: number, beforeMs = 3000, afterMs = 1000): string {
  const from = wallOf(p, at - beforeMs);
  const to = wallOf(p, at + afterMs);
  const start = p.timeline.changeAt(from);
  const list = [...(start ? [start] : []), ...p.timeline.changes.filter((c) => c.at > from && c.at <= to)];
  return list.map((c) => `${Math.round(recTimeOf(p, c.at))} ${c.activity}/${c.source}`).join(', ');
}
