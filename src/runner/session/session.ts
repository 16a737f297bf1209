/**
 * One session inside its runner, wired: the child in its PTY, the headless model, the output
 * ring, the clients and the control layer. The parts live in their own files (the record, the
 * activity, the message table, the terminal stream, the size policy, the message handlers, the exit);
 * this file connects them and owns them: one `dispose()` releases every listener, timer and
 * child it made.
 */
import type { Decision } from '../../core/agents/activity-layers.js';
import type { Clock, Scheduler } from '../../core/clock.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import type { Envelope } from '../../core/protocol/control-protocol.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { OutputRing } from '../../core/terminal/output-ring.js';
import { kindNamed } from '../../state/kind-files.js';
import { launchWithSetup } from '../../state/worktree/worktree-setup.js';
import type { ActivityTracker } from '../activity/activity-tracker.js';
import type { ClientConn } from '../clients/client-conn.js';
import { ClientSet } from '../clients/client-set.js';
import type { Control } from '../control/control.js';
import { wireControl } from '../control/control-wiring.js';
import { offerDirect } from '../direct/direct-offer.js';
import type { HostWriter } from './host-writer.js';
import type { Logger } from '../log.js';
import type { SandboxLaunch } from '../sandbox/sandbox-launch.js';
import { dispatch, keysTypedByRelay, mayTypeKeys, typeKeys, type DispatchDeps } from '../control/dispatch.js';
import { PtyHost, type ChildExit, type PtyOutput } from '../pty/pty-host.js';
import { Redraw } from '../pty/redraw.js';
import { screenLines } from '../model/model-text.js';
import { trackActivity } from './session-activity.js';
import { MessageHandlers } from '../control/message-handlers.js';
import { SessionExit } from './session-exit.js';
import { keepRecord } from './session-record.js';
import { KillRequest } from './kill-request.js';
import { SizePolicy } from '../clients/size-policy.js';
import { TerminalModel } from '../model/terminal-model.js';
import { TerminalStream } from '../stream/terminal-stream.js';
import { isoTime } from '../../core/iso-time.js';
import { processStartTime } from '../../state/proc-identity.js';
import { watchLimits, type LimitOptions } from './session-limits.js';

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
  /** How usage limits are read off the screen, and the delay after a reset (session-limits.ts); none: not watched. */
  limits?: LimitOptions;
  /** A sandboxed session's launch (src/runner/sandbox/sandbox-launch.ts): the program, with its setup, runs inside it. */
  sandbox?: SandboxLaunch;
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
  /** What happens once the program exited (session-exit.ts). */
  private readonly ending: SessionExit;
  /** When the program last printed (ms since the epoch), for when-idle prompts and wakes. */
  private lastOutputMs = 0;
  private readonly printed = this.store.add(new Emitter<void>());
  private readonly typed = this.store.add(new Emitter<void>());
  private readonly finished = this.store.add(new Emitter<void>());

  /** Whenever the program prints (without the data): the wake dispatcher's idle gap. */
  readonly onData: Event<void> = this.printed.event;
  /** Whenever something is typed into the program on purpose (a prompt): the wakes' suppression window. */
  readonly onPromptTyped: Event<void> = this.typed.event;
  /** Every change of the layered activity (after host.json has it). */
  readonly onActivity: Event<Decision>;
  /** Once, when the program has exited and its exit is on disk and said to every client: the runner may go. */
  readonly onFinished: Event<void> = this.finished.event;

  constructor(private readonly deps: SessionDeps) {
    const { clock, scheduler, log } = deps;
    const rec = deps.record;
    this.kill = new KillRequest(clock);
    this.model = this.store.add(new TerminalModel({ cols: rec.cols, rows: rec.rows, scrollback: rec.scrollback, clock, scheduler }));
    const hold = <T extends Disposable>(d: T): T => this.store.add(d);
    const { hostFile, generation, heartbeatMs } = deps;
    this.host = keepRecord({ hostFile, record: rec, generation, model: this.model, clients: this.clients, clock, scheduler, log, heartbeatMs, hold });
    // A worktree's setup command runs first, on the first start only (src/state/worktree/worktree-setup.ts);
    // host.json keeps the program's own command and args, and notes that the setup ran.
    const launch = launchWithSetup(deps.sandbox ? { ...rec, args: deps.sandbox.programArgs(rec.args) } : rec);
    const spawned = deps.sandbox ? deps.sandbox.wrap(launch) : launch;
    this.pty = this.store.add(new PtyHost({ command: spawned.command, args: spawned.args, cwd: rec.cwd, env: deps.env, cols: rec.cols, rows: rec.rows, scheduler }));
    if (launch.setup !== null) this.host.update({ worktreeSetup: { command: launch.setup, startedAt: isoTime(clock.now()) } }, true);
    this.store.add(
      this.model.onPressure((paused) => {
        // Only the model's backlog bound pauses the PTY (model-backlog.ts); the log says when, since it is rare.
        log(paused ? `model backlog over its bound (${this.model.backlogBytes} bytes): PTY paused` : 'model backlog drained: PTY resumed');
        if (paused) this.pty.pause();
        else this.pty.resume();
      }),
    );
    this.store.add(this.pty.onOutput((out) => this.onOutput(out)));
    this.store.add(this.pty.onExit((e) => this.onChildExit(e)));
    // The redraw a kind needs follows the kind whose rules apply (a shell session's foreground agent).
    const redraw = this.store.add(new Redraw(this.pty, () => ({ ...this.record, agent: this.activity.effectiveKind.name }), scheduler));
    this.activity = trackActivity({ record: rec, model: this.model, pty: this.pty, host: this.host, clock, scheduler, log, hold });
    this.onActivity = this.activity.onChange;
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
        screenShows: (text) => screenLines(this.model).some((line) => line.includes(text)),
        resizeFor: (c, cols, rows) => this.size.resizeFor(c, cols, rows),
        promptsHeld: () => this.promptsHeld(),
      },
      journalFile: deps.journalFile,
      log,
      clock,
      scheduler,
      ...(deps.applyDelayMs ? { applyDelayMs: deps.applyDelayMs } : {}),
    });
    this.control = this.store.add(control);
    this.store.add(prompts);
    if (deps.limits) {
      const screen = () => screenLines(this.model);
      this.store.add(watchLimits({ ...deps.limits, host: this.host, prompts, kind: () => this.activity.effectiveKind.name, screenLines: screen, whenCurrent: (fn) => this.model.whenParsed(fn), onData: this.onData, onActivity: this.onActivity, exited: () => this.exitState !== null, promptsHeld: () => this.promptsHeld(), clock, scheduler, log }));
    }
    const snapshotTimers = this.store.add(new DisposableStore());
    this.stream = new TerminalStream({ ring: this.ring, model: this.model, clients: this.clients, generation: deps.generation, scheduler, timers: snapshotTimers, log });
    const handlers = new MessageHandlers({
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
    this.routes = { ops: handlers, control, exited, now: () => clock.now() };
    const { finalScreenFile } = deps;
    const onFinished = () => this.finished.fire();
    this.ending = new SessionExit({ model: this.model, host: this.host, stream: this.stream, control, activity: this.activity, kill: this.kill, log, scheduler, finalScreenFile, heartbeatMs, onFinished, hold });
    this.activity.start();
    // With its start time, so a program left behind by a killed runner is told from a reused pid (host-store.ts leftoverProgram).
    this.host.update({ childPid: this.pty.pid, childStartTime: processStartTime(this.pty.pid) ?? undefined, status: 'running', generation: deps.generation }, true);
    log(`child ${this.pty.pid} started: ${rec.command} ${rec.args.join(' ')}`);
  }

  get record(): HostRecord {
    return this.host.record;
  }

  /** Why new prompts are held (a spent budget), or null: set once by the composition root (main.ts), asked per prompt. */
  promptsHeld: () => string | null = () => null;

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

  /** One message from a client, through the message table (src/runner/control/message-table.ts, src/runner/control/dispatch.ts). */
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
    this.deps.sandbox?.programExited();
    this.exitState = e;
    this.ending.childExited(e);
  }
}
