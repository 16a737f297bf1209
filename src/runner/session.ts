/**
 * One session inside its runner, wired: the child in its PTY, the headless model, the output
 * ring, the clients and the control layer. The parts live in their own files (the message
 * table, the terminal stream, the size policy, the commands); this file connects them and owns
 * them: one `dispose()` releases every listener, timer and child it made.
 */
import type { Decision } from '../core/agents/activity-layers.js';
import type { Clock, Scheduler } from '../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../core/lifetime.js';
import { HEARTBEAT_INTERVAL_MS } from '../core/protocol/host-status.js';
import type { Envelope } from '../core/protocol/control-protocol.js';
import type { ClientMessage } from '../core/protocol/client-messages.js';
import type { HostRecord } from '../core/protocol/host-record.js';
import { OutputRing } from '../core/terminal/output-ring.js';
import { kindNamed, kindRegistry } from '../state/kind-files.js';
import { launchWithSetup } from '../state/worktree-setup.js';
import { ActivityTracker } from './activity-tracker.js';
import type { ClientConn } from './client-conn.js';
import { ClientSet } from './clients.js';
import type { Control } from './control.js';
import { wireControl } from './control-wiring.js';
import { offerDirect } from './direct-offer.js';
import { foregroundProgram } from './foreground.js';
import { HostWriter } from './host-writer.js';
import type { Logger } from './log.js';
import { dispatch, keysTypedByRelay, mayTypeKeys, typeKeys, type DispatchDeps } from './message-table.js';
import { PtyHost, type ChildExit, type PtyOutput } from './pty-host.js';
import { Redraw } from './redraw.js';
import { lastScreenLine, saveFinalScreen, screenLines, tailText } from './screen-text.js';
import { SessionCommands } from './session-commands.js';
import { KillRequest } from './kill-request.js';
import { SizePolicy } from './size-policy.js';
import { TerminalModel } from './terminal-model.js';
import { TerminalStream } from './terminal-stream.js';
import { isoTime } from '../core/iso-time.js';
import { processStartTime } from '../state/proc-identity.js';

export interface SessionDeps {
  /** host.json, and the record it starts from. */
  hostFile: string;
  record: HostRecord;
  log: Logger;
  generation: string;
  env: Record<string, string>;
  finalScreenFile: string;
  journalFile: string;
  clock: Clock;
  scheduler: Scheduler;
  /** How often host.json's heartbeat is written (default HEARTBEAT_INTERVAL_MS; tests: AGENT_BOARD_TEST_HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** Test-only: hold every prompt this long between accept and write (AGENT_BOARD_TEST_APPLY_DELAY_MS). */
  applyDelayMs?: number;
  /** Called once everything is flushed after the child exited. */
  onFinished: () => void;
}

export class Session implements Disposable {
  private readonly store = new DisposableStore();
  readonly host: HostWriter;
  readonly ring = new OutputRing();
  readonly model: TerminalModel;
  readonly pty: PtyHost;
  readonly clients = this.store.add(new ClientSet());
  readonly activity: ActivityTracker;
  private readonly control: Control;
  private readonly stream: TerminalStream;
  private readonly size: SizePolicy;
  private readonly routes: DispatchDeps;
  private exitState: ChildExit | null = null;
  /** Whether a user asked the program to end: its exit is then `killed`, not a failure. */
  private readonly kill: KillRequest;
  private screenFailureTold = false;
  /** When the program last printed (ms since the epoch), for when-idle prompts and wakes. */
  private lastOutputMs = 0;
  private readonly printed = this.store.add(new Emitter<void>());
  private readonly typed = this.store.add(new Emitter<void>());

  /** Whenever the program prints (without the data): the wake dispatcher's idle gap. */
  readonly onData: Event<void> = this.printed.event;
  /** Whenever something is typed into the program on purpose (a prompt): the wakes' suppression window. */
  readonly onPromptTyped: Event<void> = this.typed.event;
  /** Every change of the layered activity (after host.json has it). */
  readonly onActivity: Event<Decision>;

  constructor(private readonly deps: SessionDeps) {
    const { clock, scheduler, log } = deps;
    const rec = deps.record;
    this.kill = new KillRequest(clock);
    this.model = this.store.add(
      new TerminalModel({
        cols: rec.cols,
        rows: rec.rows,
        scrollback: rec.scrollback,
        onPressure: (paused) => {
          // Only the model's backlog bound pauses the PTY (model-backlog.ts); the log says when, since it is rare.
          log(paused ? `model backlog over its bound (${this.model.backlogBytes} bytes): PTY paused` : 'model backlog drained: PTY resumed');
          if (paused) this.pty.pause();
          else this.pty.resume();
        },
        clock,
        scheduler,
      }),
    );
    this.host = this.store.add(
      new HostWriter({
        file: deps.hostFile,
        record: rec,
        clock,
        scheduler,
        onError: (err) => log(`could not write host.json: ${err.message}; the session goes on, and says so to its clients`),
        onRecovered: (code, since) => log(`host.json written again (it could not be since ${since}: ${code})`),
        heartbeatMs: deps.heartbeatMs,
        decorate: () => ({ previewLine: lastScreenLine(this.model) }),
        // whenParsed, not whenSettled: a push must not end the model's rests while output is hot (a
        // last line needs no sequence boundary), or every burst would be parsed flat out again.
        settled: (fn) => this.model.whenParsed(fn),
      }),
    );
    this.store.add(this.host.onWrite((host) => this.clients.pushStatus(host, deps.generation)));
    this.store.add(this.host.onPush((host) => this.clients.pushStatus(host, deps.generation)));
    // After a burst the model catches up later than the output: host.json's preview is written again from its screen.
    this.store.add(this.model.onCaughtUp(() => this.host.noteOutput()));
    // A worktree's setup command runs first, on the first start only (src/state/worktree-setup.ts);
    // host.json keeps the program's own command and args, and notes that the setup ran.
    const launch = launchWithSetup(rec);
    this.pty = this.store.add(new PtyHost({ command: launch.command, args: launch.args, cwd: rec.cwd, env: deps.env, cols: rec.cols, rows: rec.rows, scheduler }));
    if (launch.setup !== null) this.host.update({ worktreeSetup: { command: launch.setup, startedAt: isoTime(clock.now()) } }, true);
    this.store.add(this.pty.onOutput((out) => this.onOutput(out)));
    this.store.add(this.pty.onExit((e) => this.onChildExit(e)));
    // The redraw a kind needs follows the kind whose rules apply (a shell session's foreground agent).
    const redraw = this.store.add(new Redraw(this.pty, () => ({ ...this.record, agent: this.activity.effectiveKind.name }), scheduler));
    const kind = kindNamed(rec.agent);
    this.activity = this.store.add(
      new ActivityTracker({
        kind,
        kinds: kindRegistry(),
        view: { title: () => this.model.trackedModes.title, screenLines: () => screenLines(this.model), whenCurrent: (fn) => this.model.whenParsed(fn) },
        clock,
        scheduler,
        hooks: kind.wiring && !rec.hooksNote ? { wired: true } : { wired: false, ...(rec.hooksNote ? { note: rec.hooksNote } : {}) },
        foreground: () => foregroundProgram(this.pty.pid, this.pty.foregroundGroup()),
      }),
    );
    this.onActivity = this.activity.onChange;
    // A title read once its chunk is in the model: the state goes out with the line that caused it.
    this.store.add(this.model.onTitleChange(() => this.model.whenParsed(() => this.activity.titleChanged())));
    const exited = () => this.exitState !== null;
    this.size = this.store.add(new SizePolicy({ pty: this.pty, model: this.model, host: this.host, clients: this.clients, clock, scheduler, exited }));
    const { control, prompts } = wireControl({
      source: {
        id: rec.id,
        generation: deps.generation,
        exit: () => this.exitState,
        revision: () => this.record.revision ?? 0,
        lastSeq: () => this.ring.nextSeq - 1,
        kind: () => this.activity.effectiveKind,
        bracketedPasteMode: () => this.model.term.modes.bracketedPasteMode,
        type: (data) => {
          this.pty.write(data);
          this.typed.fire();
        },
        lastOutputMs: () => this.lastOutputMs,
        resizeFor: (c, cols, rows) => this.size.resizeFor(c, cols, rows),
      },
      journalFile: deps.journalFile,
      log,
      clock,
      scheduler,
      ...(deps.applyDelayMs ? { applyDelayMs: deps.applyDelayMs } : {}),
    });
    this.control = this.store.add(control);
    this.store.add(prompts);
    const snapshotTimers = this.store.add(new DisposableStore());
    this.stream = new TerminalStream({ ring: this.ring, model: this.model, clients: this.clients, generation: deps.generation, scheduler, timers: snapshotTimers, log });
    const commands = new SessionCommands({
      generation: deps.generation,
      host: this.host,
      hostFile: deps.hostFile,
      pty: this.pty,
      kill: this.kill,
      redraw,
      activity: this.activity,
      stream: this.stream,
      // The markers the client's jiggle chain looks for: the kind it takes from the same record.
      direct: (c, req) =>
        offerDirect(c, req, { clock, scheduler, log, settleMarkers: () => kindNamed(this.record.foregroundAgent ?? this.record.agent).settleMarkers, handle: (cc, m) => this.handle(cc, m), typeKeys: (cc, b) => typeKeys(this.routes, cc, b), lendPty: (b) => this.pty.lend(b), mayType: (cc) => mayTypeKeys(this.routes, cc), typedByRelay: (cc) => keysTypedByRelay(this.routes, cc) }),
      control,
      prompts,
      size: this.size,
      clock,
      log,
      exited,
    });
    this.routes = { ops: commands, control, exited, now: () => clock.now() };
    this.store.add(
      this.activity.onChange(({ reading: r }) => {
        // At once (the board and the wakes go by it), but no fsync: activity is
        // advisory and read afresh by a new runner, and the first output after
        // a pause (a keystroke's echo) turns a session busy: it must not wait
        // for a disk.
        this.host.update({ activity: r.activity, activitySource: r.source, activitySince: isoTime(clock.now()) }, true, false);
      }),
    );
    this.store.add(
      this.activity.onKindChange(({ kind: k, foreground: fg }) => {
        log(fg ? `foreground: ${fg.argv.join(' ').slice(0, 120)} (pid ${fg.pid}) runs as kind ${k.name}` : `foreground: back to the session's own program (kind ${k.name})`);
        this.host.update({ foregroundAgent: k.name === rec.agent ? undefined : k.name }, true, false);
      }),
    );
    this.activity.start();
    // With its start time, so a program left behind by a killed runner is told from a reused pid (host-store.ts leftoverProgram).
    this.host.update({ childPid: this.pty.pid, childStartTime: processStartTime(this.pty.pid) ?? undefined, status: 'running', generation: deps.generation }, true);
    log(`child ${this.pty.pid} started: ${rec.command} ${rec.args.join(' ')}`);
  }

  get record(): HostRecord {
    return this.host.record;
  }

  get generation(): string {
    return this.deps.generation;
  }

  /** How the child ended, once it has. */
  get exited(): ChildExit | null {
    return this.exitState;
  }

  /** When the program last printed, in ms since the epoch (-Infinity: never). */
  get lastOutputAt(): number {
    return this.lastOutputMs || Number.NEGATIVE_INFINITY;
  }

  /** A new connection: served until it closes (then `detach`). */
  attach(c: ClientConn): void {
    this.clients.add(c);
  }

  detach(c: ClientConn): void {
    if (!this.clients.remove(c)) return;
    this.control.forget(c);
    c.dispose();
    this.size.left(c);
  }

  /** One message from a client, through the message table (src/runner/message-table.ts). */
  handle(c: ClientConn, msg: ClientMessage, envelope?: Envelope): void {
    dispatch(this.routes, c, msg, envelope);
  }

  /** The runner was asked to go (SIGTERM: `rm --force`): the program is ended as `kill` ends it, and its exit is a kill. */
  terminate(): void {
    this.kill.ask('SIGTERM', true);
    this.pty.terminate();
  }

  /** Everything the session holds, released (the child, if still running, is told to go). */
  dispose(): void {
    this.store.dispose();
  }

  /** A chunk of output, as text and (when valid UTF-8) the same as bytes: see utf8-chunker.ts. */
  private onOutput(out: PtyOutput): void {
    this.lastOutputMs = this.deps.clock.now();
    // Live clients first, the rest after: the echo a user waits for leaves
    // before the bookkeeping that nobody waits for (model.write only queues
    // the parse; an activity change writes host.json and pushes a status; the
    // host file's output stamp only arms a timer). The output frames on the
    // wire are the same; a status this output causes now follows it.
    const chunk = this.stream.publish(out);
    this.model.write(out.raw ?? out.text, chunk.seq + 1);
    // The last line's push is armed before the activity can change, so a session turning busy
    // reaches the board in that push, with the line that made it busy (HostWriter.flush).
    this.host.noteOutput();
    this.activity.output();
    this.printed.fire();
  }

  private onChildExit(e: ChildExit): void {
    this.exitState = e;
    const killed = this.kill.killedWith();
    this.deps.log(`child exited: code ${e.code} signal ${e.signal}${killed ? ` (killed: ${killed} was asked for)` : ''}`);
    this.control.sessionEnded(e);
    this.activity.dispose();
    // Let the model take in the last output, keep the final screen, then say goodbye.
    this.model.whenSettled(() => {
      const screenSaved = this.saveScreen();
      this.captureResumeId();
      this.host.update({ status: 'exited', exitCode: e.code, exitSignal: e.signal, killed, childPid: null, childStartTime: undefined, foregroundAgent: undefined }, true);
      this.stream.farewell({ ...e, ...(killed ? { killed } : {}) });
      this.finishOnceSaved(screenSaved);
    });
  }

  /** The final screen on disk (peek and attach show it once the session ended): whether it is. Told once, not at every try. */
  private saveScreen(): boolean {
    const saved = saveFinalScreen(this.model, this.deps.finalScreenFile);
    if (!saved.ok && !this.screenFailureTold) this.deps.log(`could not save the final screen: ${saved.message}`);
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
    if (this.host.saved) {
      this.deps.onFinished();
      return;
    }
    this.deps.log('the exit could not be written to host.json: the runner stays until it can');
    const retry = new MutableDisposable();
    this.store.add(retry);
    retry.value = this.deps.scheduler.setInterval(() => {
      if (!screenSaved) screenSaved = this.saveScreen();
      if (!this.host.saved) this.host.flush(true);
      // Its folder gone (`rm` of the exited session): nothing left to save it in.
      if (!this.host.saved && this.host.record.cannotWrite !== 'ENOENT') return;
      retry.dispose();
      this.deps.onFinished();
    }, this.deps.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  }

  /** What the program printed on its way out may name its conversation (`claude --resume <uuid>`, `codex resume <uuid>`). */
  private captureResumeId(): void {
    const pattern = kindNamed(this.record.agent).conversation.printed;
    if (!pattern) return;
    const m = new RegExp(pattern).exec(tailText(this.model, 60));
    if (m?.[1] && m[1] !== this.record.resumeId) this.host.update({ resumeId: m[1] });
  }
}
