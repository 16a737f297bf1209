/**
 * A session's activity tracker, wired: it reads the model's screen and title and the PTY's
 * foreground program (a shell session's agent), and every change it decides is kept in host.json
 * (the activity at once, the foreground agent's kind with a line in the runner log).
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import { isoTime } from '../../core/iso-time.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { kindNamed, kindRegistry } from '../../state/kind-files.js';
import { ActivityTracker } from '../activity/activity-tracker.js';
import { foregroundProgram } from '../activity/foreground.js';
import type { HostWriter } from './host-writer.js';
import type { Logger } from '../log.js';
import type { PtyHost } from '../pty/pty-host.js';
import { screenLines } from '../model/model-text.js';
import type { TerminalModel } from '../model/terminal-model.js';

export interface SessionActivityDeps {
  /** The record the session starts from: its kind and whether its hooks are wired. */
  record: HostRecord;
  model: TerminalModel;
  pty: PtyHost;
  host: HostWriter;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
  /** Keeps the tracker and its listeners for as long as the session lives (its owner's store). */
  hold: <T extends Disposable>(d: T) => T;
}

/** The session's tracker, not started yet (the session starts it once it is wired). */
export function trackActivity(d: SessionActivityDeps): ActivityTracker {
  const { record: rec, model, pty, host, clock } = d;
  const kind = kindNamed(rec.agent);
  const activity = d.hold(
    new ActivityTracker({
      kind,
      kinds: kindRegistry(),
      view: { title: () => model.trackedModes.title, screenLines: () => screenLines(model), whenCurrent: (fn) => model.whenParsed(fn) },
      clock,
      scheduler: d.scheduler,
      hooks: kind.wiring && !rec.hooksNote ? { wired: true } : { wired: false, ...(rec.hooksNote ? { note: rec.hooksNote } : {}) },
      foreground: () => foregroundProgram(pty.pid, pty.foregroundGroup()),
    }),
  );
  // A title read once its chunk is in the model: the state goes out with the line that caused it.
  d.hold(model.onTitleChange(() => model.whenParsed(() => activity.titleChanged())));
  d.hold(
    activity.onChange(({ reading: r }) => {
      // At once (the board and the wakes go by it), but no fsync: activity is
      // advisory and read afresh by a new runner, and the first output after
      // a pause (a keystroke's echo) turns a session busy: it must not wait
      // for a disk.
      host.update({ activity: r.activity, activitySource: r.source, activitySince: isoTime(clock.now()) }, true, false);
    }),
  );
  d.hold(
    activity.onKindChange(({ kind: k, foreground: fg }) => {
      d.log(fg ? `foreground: ${fg.argv.join(' ').slice(0, 120)} (pid ${fg.pid}) runs as kind ${k.name}` : `foreground: back to the session's own program (kind ${k.name})`);
      host.update({ foregroundAgent: k.name === rec.agent ? undefined : k.name }, true, false);
    }),
  );
  return activity;
}
