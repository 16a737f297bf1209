/**
 * Whether the agent said it hit a usage limit (docs/usage.md, "Carrying on after a limit"): its
 * screen is read by a detector (src/core/usage/limits: the words each CLI prints) a moment after
 * it printed, and a limit it shows is kept in the session's record (`limited`: its words, when it
 * resets, when it was seen) until the reset has passed and the agent works again.
 *
 * A limit is seen once: the resets an agent states are relative ("try again in 2 hours") and would
 * move on with every look, so a line already counted is not counted again while it stays on the
 * screen, and a new runner that sees its program say the same limit again (a reset within
 * SAME_RESET_MS) keeps the record's. Only the same words printed again (more lines that hold
 * them) or other words are a new sighting.
 */
import type { Activity } from '../../core/agents/activity.js';
import type { Clock, Scheduler } from '../../core/clock.js';
import { isoTime } from '../../core/iso-time.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { sameLimit, type LimitDetector } from '../../core/usage/limit-state.js';
import type { Logger } from '../log.js';

/**
 * How long after output the screen is read: reading every chunk would cost a busy agent a screen
 * walk per chunk; a limit is news to a user in minutes, and half a second bounds the cost of an
 * agent that prints without a pause to two looks a second.
 */
export const LIMIT_CHECK_MS = 500;

export interface LimitWatchDeps {
  /** The kind whose words apply now (a shell session's foreground agent). */
  kind(): string;
  /** The screen's text, top to bottom. */
  screenLines(): readonly string[];
  detect: LimitDetector;
  /** Runs `fn` once the model has parsed what was printed so far (the screen is read then). */
  whenCurrent?: (fn: () => void) => void;
  /** The record as it is now (its `limited`, its tries). */
  record(): Pick<HostRecord, 'limited' | 'limitResumes'>;
  /** Keep `limited` in the record (undefined: the limit is over). */
  write(limited: HostRecord['limited'] | undefined): void;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
}

export class LimitWatch implements Disposable {
  private readonly timer = new MutableDisposable();
  /** The line counted last and how many screen lines held it; null while the screen shows no limit. */
  private counted: { line: string; count: number } | null = null;
  private disposed = false;

  constructor(private readonly d: LimitWatchDeps) {}

  /** The program printed: the screen is read a moment later (at most once per LIMIT_CHECK_MS). */
  output(): void {
    if (this.timer.value) return;
    this.timer.value = this.d.scheduler.setTimeout(() => {
      this.timer.clear();
      // A parse that ends after the session let the watch go reads nothing.
      if (this.d.whenCurrent) this.d.whenCurrent(() => this.disposed || this.check());
      else this.check();
    }, LIMIT_CHECK_MS);
  }

  /** The activity changed: an agent that works again after its reset is no longer limited. */
  activityChanged(activity: Activity): void {
    const l = this.d.record().limited;
    if (!l || activity !== 'busy') return;
    const now = this.d.clock.now();
    if (now < (l.resetAt ? Date.parse(l.resetAt) : Date.parse(l.since))) return;
    this.d.log(`limit: over (reset ${l.resetAt ?? 'not said'} passed, the agent works again)`);
    this.d.write(undefined);
  }

  /** Reads the screen now. */
  check(): void {
    const { d } = this;
    const now = d.clock.now();
    const lines = d.screenLines();
    const seen = d.detect(d.kind(), lines, now);
    if (!seen) {
      const was = this.counted;
      this.counted = null;
      // The words this runner saw went from the screen after the reset: the agent went past its
      // limit (a prompt and its answer follow it). Claude holds its turn through the limit, busy
      // all along, so no turn to busy says it works again. A runner that never saw the words (a
      // revived one, its program not saying them again) keeps the limit: its resume is still due.
      const l = d.record().limited;
      if (was && l?.resetAt && now >= Date.parse(l.resetAt)) {
        d.log(`limit: over (reset ${l.resetAt} passed, the agent's screen went past it)`);
        d.write(undefined);
      }
      return;
    }
    const count = Math.max(1, lines.filter((l) => l.includes(seen.line)).length);
    const before = this.counted;
    this.counted = { line: seen.line, count };
    if (before && before.line === seen.line && count <= before.count) return;
    const rec = d.record();
    if (rec.limited && sameLimit(rec.limited, seen, rec.limitResumes)) return;
    d.log(`limit: ${JSON.stringify(seen.line)}, resets ${seen.resetAt ?? '(not said)'}`);
    d.write({ resetAt: seen.resetAt, ...(seen.resetToMinute ? { resetToMinute: true as const } : {}), line: seen.line, since: isoTime(now) });
  }

  dispose(): void {
    this.disposed = true;
    this.timer.dispose();
  }
}
