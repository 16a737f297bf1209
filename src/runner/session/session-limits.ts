/**
 * A session's usage limits, wired (docs/usage.md, "Carrying on after a limit"): the limit watch
 * reads the screen after output and keeps `limited` in host.json, and resume-after-limit types the
 * session's prompt through the durable prompts once the limit has reset.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { DisposableStore, type Disposable, type Event } from '../../core/lifetime.js';
import type { Decision } from '../../core/agents/activity-layers.js';
import { recentTries, type LimitDetector } from '../../core/usage/limit-state.js';
import { LimitWatch } from '../activity/limit-watch.js';
import type { DurableInputs } from '../control/durable-inputs.js';
import type { Logger } from '../log.js';
import type { HostWriter } from './host-writer.js';
import { LimitResume, RESUME_DELAY_MAX_MS } from './limit-resume.js';

/** How the runner finds limits and waits after them: the composition root's choice, a test's own. */
export interface LimitOptions {
  detect: LimitDetector;
  /** The longest random delay after a reset (default RESUME_DELAY_MAX_MS). */
  delayMaxMs?: number;
  /** A number in [0, 1): the delay's draw (default Math.random). */
  random?: () => number;
}

export interface SessionLimitsDeps extends LimitOptions {
  host: HostWriter;
  prompts: DurableInputs;
  kind(): string;
  screenLines(): readonly string[];
  whenCurrent(fn: () => void): void;
  onData: Event<void>;
  onActivity: Event<Decision>;
  exited(): boolean;
  /** Why a spent budget holds new prompts, or null: the resume's prompt is held too. */
  promptsHeld(): string | null;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
}

export function watchLimits(d: SessionLimitsDeps): Disposable {
  const store = new DisposableStore();
  const { host, clock, scheduler, log } = d;
  const watch = store.add(
    new LimitWatch({
      kind: d.kind,
      screenLines: d.screenLines,
      whenCurrent: d.whenCurrent,
      detect: d.detect,
      record: () => host.record,
      // At once and fsynced: a limit is what a revived session plans its resume from.
      write: (limited) => host.update({ limited }, true),
      clock,
      scheduler,
      log,
    }),
  );
  const random = d.random ?? Math.random;
  const maxMs = d.delayMaxMs ?? RESUME_DELAY_MAX_MS;
  const resume = store.add(
    new LimitResume({
      record: () => host.record,
      addTry: (t) => host.update({ limitResumes: [...recentTries(host.record.limitResumes, clock.now()), t] }, true),
      prompts: d.prompts,
      exited: d.exited,
      promptsHeld: d.promptsHeld,
      dialogShown: () => host.record.activity === 'waiting',
      delayMs: () => Math.floor(random() * maxMs),
      clock,
      scheduler,
      log,
    }),
  );
  store.add(d.onData(() => watch.output()));
  store.add(d.onActivity(({ reading }) => watch.activityChanged(reading.activity)));
  store.add(host.onWrite(() => resume.refresh()));
  // A record that comes with a limit (a restarted or revived runner) plans its resume at once.
  resume.refresh();
  return store;
}
