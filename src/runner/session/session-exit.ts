/**
 * How a session ends once its program exited: the control layer and the activity told, the
 * model given the last output, then the final screen saved, the conversation's id read off it,
 * the exit written to host.json and said to every client, and the runner let go once the exit is
 * on disk (on a full disk it stays and tries again).
 */
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import { HEARTBEAT_INTERVAL_MS } from '../../core/protocol/host-status.js';
import { kindNamed } from '../../state/kind-files.js';
import type { ActivityTracker } from '../activity/activity-tracker.js';
import type { Control } from '../control/control.js';
import type { HostWriter } from './host-writer.js';
import type { KillRequest } from './kill-request.js';
import type { Logger } from '../log.js';
import type { ChildExit } from '../pty/pty-host.js';
import { saveFinalScreen, tailText } from '../model/model-text.js';
import type { TerminalModel } from '../model/terminal-model.js';
import type { TerminalStream } from '../stream/terminal-stream.js';

export interface SessionExitDeps {
  model: TerminalModel;
  host: HostWriter;
  stream: TerminalStream;
  control: Control;
  activity: ActivityTracker;
  /** Whether a user asked the program to end: its exit is then `killed`, not a failure. */
  kill: KillRequest;
  log: Logger;
  scheduler: Scheduler;
  finalScreenFile: string;
  /** How often host.json's heartbeat is written, and so how often a failed exit is tried again. */
  heartbeatMs?: number;
  /** Called once everything is flushed after the child exited. */
  onFinished: () => void;
  /** Keeps a retry's timer for as long as the session lives (its owner's store). */
  hold: (d: Disposable) => void;
}

export class SessionExit {
  private screenFailureTold = false;

  constructor(private readonly d: SessionExitDeps) {}

  /** The program ended: everything above, in order. */
  childExited(e: ChildExit): void {
    const d = this.d;
    const killed = d.kill.killedWith();
    d.log(`child exited: code ${e.code} signal ${e.signal}${killed ? ` (killed: ${killed} was asked for)` : ''}`);
    d.control.sessionEnded(e);
    d.activity.dispose();
    // Let the model take in the last output, keep the final screen, then say goodbye.
    d.model.whenSettled(() => {
      const screenSaved = this.saveScreen();
      this.captureResumeId();
      d.host.update({ status: 'exited', exitCode: e.code, exitSignal: e.signal, killed, childPid: null, childStartTime: undefined, foregroundAgent: undefined }, true);
      d.stream.farewell({ ...e, ...(killed ? { killed } : {}) });
      this.finishOnceSaved(screenSaved);
    });
  }

  /** The final screen on disk (peek and attach show it once the session ended): whether it is. Told once, not at every try. */
  private saveScreen(): boolean {
    const saved = saveFinalScreen(this.d.model, this.d.finalScreenFile);
    if (!saved.ok && !this.screenFailureTold) this.d.log(`could not save the final screen: ${saved.message}`);
    this.screenFailureTold ||= !saved.ok;
    return saved.ok;
  }

  /**
   * The runner goes once its exit is on disk. Gone before, it would leave a record that says
   * `running` with no runner, which every reader takes for lost; so on a full disk it stays,
   * serving (its hello says exited), and tries again at every heartbeat, the final screen first,
   * until the record is written (space freed), then finishes as it would have.
   */
  private finishOnceSaved(screenSaved: boolean): void {
    const { host } = this.d;
    if (host.saved) {
      this.d.onFinished();
      return;
    }
    this.d.log('the exit could not be written to host.json: the runner stays until it can');
    const retry = new MutableDisposable();
    this.d.hold(retry);
    retry.value = this.d.scheduler.setInterval(() => {
      if (!screenSaved) screenSaved = this.saveScreen();
      if (!host.saved) host.flush(true);
      // Its folder gone (`rm` of the exited session): nothing left to save it in.
      if (!host.saved && host.record.cannotWrite !== 'ENOENT') return;
      retry.dispose();
      this.d.onFinished();
    }, this.d.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  }

  /** What the program printed on its way out may name its conversation (`claude --resume <uuid>`, `codex resume <uuid>`). */
  private captureResumeId(): void {
    const { host, model } = this.d;
    const pattern = kindNamed(host.record.agent).conversation.printed;
    if (!pattern) return;
    const m = new RegExp(pattern).exec(tailText(model, 60));
    if (m?.[1] && m[1] !== host.record.resumeId) host.update({ resumeId: m[1] });
  }
}
