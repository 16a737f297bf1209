/** One session inside its runner: the child in its PTY, the headless model, the output ring and the clients. */
import { normalizeSignal } from '../core/protocol/signals.js';
import { OutputRing } from '../core/terminal/output-ring.js';
import type { ControlType, Envelope } from '../core/protocol/control-protocol.js';
import { PROTOCOL_VERSION, type ClientMessage, type HostRecord } from '../core/protocol/protocol.js';
import { encodeFrame } from '../core/protocol/frame-decoder.js';
import { checkSessionName } from '../core/session-ref.js';
import { clampSize } from '../core/protocol/size.js';
import { ClientConn, clientBacklogLimit } from './client-conn.js';
import { ActivityTracker } from './activity-tracker.js';
import { foregroundProgram } from './foreground.js';
import { realClock, realScheduler } from '../state/real-time.js';
import { kindNamed, kindRegistry } from '../state/kind-files.js';
import type { Control } from './control.js';
import { wireControl } from './control-wiring.js';
import type { HostWriter } from './host-writer.js';
import type { Logger } from './log.js';
import { PtyHost, type ChildExit } from './pty-host.js';
import { Redraw } from './redraw.js';
import { lastScreenLine, saveFinalScreen, screenLines, tailText } from './screen-text.js';
import { sendSnapshot } from './snapshots.js';
import { TerminalModel } from './terminal-model.js';
import { launchWithSetup } from '../state/worktree-setup.js';

export interface SessionDeps {
  host: HostWriter;
  log: Logger;
  generation: string;
  env: Record<string, string>;
  finalScreenFile: string;
  journalFile: string;
  /** Test-only: hold every prompt this long between accept and write (AGENT_BOARD_TEST_APPLY_DELAY_MS). */
  applyDelayMs?: number;
  /** Called once everything is flushed after the child exited. */
  onFinished: () => void;
}

const ALLOWED_SIGNALS = new Set(['SIGTERM', 'SIGKILL', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGCONT', 'SIGSTOP', 'SIGWINCH']);

/**
 * One session inside its runner: the child in its PTY, the headless model,
 * the output ring and the clients. Output is read as fast as the child writes
 * it; only the model's parser backlog may pause the PTY, never a client.
 */
export class Session {
  readonly ring = new OutputRing();
  readonly model: TerminalModel;
  readonly pty: PtyHost;
  readonly clients = new Set<ClientConn>();
  /** How the child ended, once it has. */
  exit: ChildExit | null = null;
  private readonly redraw: Redraw;
  private readonly control: Control;
  readonly activity: ActivityTracker;
  /** When the program last printed (ms since the epoch), for when-idle prompts and wakes. */
  lastOutputMs = 0;
  private readonly outputWatchers = new Set<() => void>();
  /** Called whenever something is typed into the program on purpose (a prompt): the wakes' suppression window. */
  onPromptTyped: (() => void) | null = null;
  /** Called when the layered activity changes (the wakes listen). */
  onActivity: (() => void) | null = null;

  constructor(private readonly deps: SessionDeps) {
    const rec = deps.host.record;
    this.model = new TerminalModel({
      cols: rec.cols,
      rows: rec.rows,
      scrollback: rec.scrollback,
      onPressure: (paused) => (paused ? this.pty.pause() : this.pty.resume()),
    });
    // A worktree's setup command runs first, on the first start only (src/state/worktree-setup.ts);
    // host.json keeps the program's own command and args, and notes that the setup ran.
    const launch = launchWithSetup(rec);
    this.pty = new PtyHost({ command: launch.command, args: launch.args, cwd: rec.cwd, env: deps.env, cols: rec.cols, rows: rec.rows });
    if (launch.setup !== null) {
      const patch: Partial<HostRecord> = { worktreeSetup: { command: launch.setup, startedAt: new Date().toISOString() } };
      deps.host.update(patch, true);
    }
    this.pty.onData((data) => this.onOutput(data));
    this.pty.onExit((e) => this.onChildExit(e));
    // The redraw a kind needs follows the kind whose rules apply (a shell session's foreground agent).
    this.redraw = new Redraw(this.pty, () => ({ ...this.record, agent: this.activity.effectiveKind.name }));
    this.control = wireControl(this, deps);
    const kind = kindNamed(rec.agent);
    this.activity = new ActivityTracker({
      kind,
      kinds: kindRegistry(),
      view: { title: () => this.model.trackedModes.title, screenLines: () => screenLines(this.model) },
      clock: realClock,
      scheduler: realScheduler(),
      hooks: kind.wiring && !rec.hooksNote ? { wired: true } : { wired: false, ...(rec.hooksNote ? { note: rec.hooksNote } : {}) },
      foreground: () => foregroundProgram(this.pty.pid, this.pty.foregroundGroup()),
    });
    this.activity.onChange(({ reading: r }) => {
      // At once (the board and the wakes go by it), but no fsync: activity is
      // advisory and read afresh by a new runner, and the first output after
      // a pause (a keystroke's echo) turns a session busy: it must not wait
      // for a disk.
      deps.host.update({ activity: r.activity, activitySource: r.source, activitySince: new Date().toISOString() }, true, false);
      this.onActivity?.();
    });
    this.activity.onKindChange(({ kind: k, foreground: fg }) => {
      deps.log(fg ? `foreground: ${fg.argv.join(' ').slice(0, 120)} (pid ${fg.pid}) runs as kind ${k.name}` : `foreground: back to the session's own program (kind ${k.name})`);
      deps.host.update({ foregroundAgent: k.name === rec.agent ? undefined : k.name }, true, false);
    });
    this.activity.start();
    deps.host.decorate = () => ({ previewLine: lastScreenLine(this.model) });
    deps.host.onWrite = (host) => {
      let frame: string | null = null;
      for (const c of this.clients) {
        if (!c.watchesStatus) continue;
        frame ??= encodeFrame({ type: 'status', host, generation: deps.generation });
        c.sendEncoded(frame);
      }
    };
    deps.host.update({ childPid: this.pty.pid, status: 'running', generation: deps.generation }, true);
    deps.log(`child ${this.pty.pid} started: ${rec.command} ${rec.args.join(' ')}`);
  }

  get record(): HostRecord {
    return this.deps.host.record;
  }

  get generation(): string {
    return this.deps.generation;
  }

  get exited(): ChildExit | null {
    return this.exit;
  }

  /** When the program last printed, in ms since the epoch (-Infinity: never). */
  get lastOutputAt(): number {
    return this.lastOutputMs || Number.NEGATIVE_INFINITY;
  }

  /** Told (without the data) whenever the program prints; for the wake dispatcher's idle gap. */
  onData(fn: () => void): { dispose(): void } {
    this.outputWatchers.add(fn);
    return { dispose: () => void this.outputWatchers.delete(fn) };
  }

  private onOutput(data: string): void {
    this.lastOutputMs = Date.now();
    const chunk = this.ring.push(data);
    // Live clients first, the rest after: the echo a user waits for leaves
    // before the bookkeeping that nobody waits for (model.write only queues
    // the parse; an activity change writes host.json and pushes a status; the
    // host file's output stamp only arms a timer). The output frames on the
    // wire are the same; a status this output causes now follows it.
    let frame: string | null = null; // encoded once, whatever the number of clients
    for (const c of this.clients) {
      if (c.stream !== 'live' || c.cursor !== chunk.seq) continue;
      frame ??= encodeFrame({ type: 'output', seq: chunk.seq, data });
      c.sendEncoded(frame);
      c.cursor = chunk.seq + 1;
      if (c.backlog > clientBacklogLimit(this.model.term.cols, this.model.term.rows)) this.fallBehind(c);
    }
    this.model.write(data, chunk.seq + 1);
    this.activity.output();
    for (const fn of this.outputWatchers) fn();
    this.deps.host.noteOutput();
  }

  /** The client cannot keep up: stop sending, and re-snapshot it once its socket drains. */
  private fallBehind(c: ClientConn): void {
    c.stream = 'lagging';
    this.deps.log(`client ${c.id} fell behind (${c.backlog} bytes queued); will re-snapshot`);
    c.socket.once('drain', () => {
      if (c.stream === 'lagging' && !c.closed) sendSnapshot(this, c, 0);
    });
  }

  attach(c: ClientConn): void {
    this.clients.add(c);
  }

  detach(c: ClientConn): void {
    if (!this.clients.delete(c)) return;
    this.control.forget(c);
    // The size follows the most recently active interactive client that is left.
    if (c.size && !this.exit) {
      const next = [...this.clients].filter((o) => o.size && !o.readOnly).sort((a, b) => b.lastActive - a.lastActive)[0];
      if (next?.size) this.applySize(next.size.cols, next.size.rows);
    }
  }

  handle(c: ClientConn, msg: ClientMessage, envelope?: Envelope): void {
    if (msg.type !== 'hello' && !c.greeted) {
      c.send({ type: 'error', code: 'not_hello', message: 'send hello first', commandId: envelope?.commandId });
      return;
    }
    if (envelope) {
      this.control.handle(c, msg as ClientMessage & { type: ControlType }, envelope);
      return;
    }
    switch (msg.type) {
      case 'hello':
        if (msg.protocol !== PROTOCOL_VERSION) {
          c.finish({ type: 'error', code: 'unsupported_protocol', message: `runner speaks protocol ${PROTOCOL_VERSION}, client ${msg.protocol}` });
          return;
        }
        c.greeted = true;
        c.readOnly = msg.readOnly ?? false;
        c.name = msg.client ?? '';
        c.send({ type: 'hello', protocol: PROTOCOL_VERSION, generation: this.generation, host: this.record });
        return;
      case 'status':
        c.send({ type: 'status', host: this.record, generation: this.generation });
        return;
      case 'explain':
        c.send({ type: 'explain', explanation: this.activity.explain() });
        return;
      case 'subscribe_status':
        c.watchesStatus = true;
        c.send({ type: 'status', host: this.record, generation: this.generation });
        return;
      case 'reconcile':
        this.control.reconcileLegacy(c, msg.commandIds);
        return;
      case 'subscribe_terminal':
        // Resizes still pending from this burst, then this client's own size, come before the frame.
        this.control.applyPendingResizes();
        if (msg.cols !== undefined && msg.rows !== undefined && !c.readOnly && !this.exit) {
          c.lastActive = Date.now();
          c.size = clampSize(msg.cols, msg.rows);
          this.applySize(c.size.cols, c.size.rows);
        }
        if (msg.sinceSeq !== undefined && this.ring.holds(msg.sinceSeq)) {
          c.send({ type: 'replay_begin', fromSeq: msg.sinceSeq, generation: this.generation });
          c.stream = 'live';
          c.cursor = msg.sinceSeq;
          for (const chunk of this.ring.since(msg.sinceSeq) ?? []) c.send({ type: 'output', seq: chunk.seq, data: chunk.data });
          c.cursor = this.ring.nextSeq;
        } else {
          sendSnapshot(this, c, msg.scrollback ?? 0);
        }
        return;
      case 'detach':
        this.act(c, msg);
        return;
      case 'hook':
        this.onHook(msg.kind, msg.event, msg.sessionId);
        return;
      case 'rename': {
        const bad = checkSessionName(msg.name);
        if (bad) {
          c.send({ type: 'error', code: 'invalid_message', message: bad });
          return;
        }
        this.deps.host.update({ name: msg.name }, true);
        c.send({ type: 'status', host: this.record, generation: this.generation });
        return;
      }
    }
    // Everything below changes the session: read-only clients may not, and an exited child cannot.
    if (c.readOnly) {
      c.send({ type: 'error', code: 'read_only', message: `${msg.type} refused: this client attached read-only` });
      return;
    }
    if (this.exit) {
      c.send({ type: 'error', code: 'session_exited', message: `${msg.type} refused: the session has exited` });
      return;
    }
    c.lastActive = Date.now();
    if (msg.type === 'resize') {
      c.size = clampSize(msg.cols, msg.rows);
      this.applySize(c.size.cols, c.size.rows);
      return;
    }
    this.act(c, msg);
  }

  /** What a command does, with or without an envelope; the checks are the caller's. */
  act(c: ClientConn, msg: ClientMessage): void {
    switch (msg.type) {
      case 'detach':
        c.finish({ type: 'bye', reason: 'detach' });
        return;
      case 'input':
        if (c.size) this.applySize(c.size.cols, c.size.rows);
        this.pty.write(msg.data);
        return;
      case 'interrupt':
        this.pty.write('\x03');
        return;
      case 'redraw':
        this.redraw.jiggle();
        return;
      case 'terminate': {
        const sig = msg.signal === undefined ? undefined : normalizeSignal(msg.signal);
        if (!sig || sig === 'SIGTERM') {
          this.deps.log(`terminate requested by client ${c.id}`);
          this.pty.terminate();
        } else if (ALLOWED_SIGNALS.has(sig)) {
          this.deps.log(`${sig} requested by client ${c.id}`);
          this.pty.signal(sig as NodeJS.Signals);
        } else {
          c.send({ type: 'error', code: 'invalid_message', message: `unknown signal "${msg.signal}"; use one of ${[...ALLOWED_SIGNALS].join(', ')}` });
        }
        return;
      }
    }
  }

  /** Resize PTY and model together; the host file follows. */
  applySize(cols: number, rows: number): void {
    const size = clampSize(cols, rows);
    if (size.cols === this.record.cols && size.rows === this.record.rows) return;
    this.pty.resize(size.cols, size.rows);
    this.model.resize(size.cols, size.rows);
    this.deps.host.update(size);
  }

  private onChildExit(e: ChildExit): void {
    this.exit = e;
    this.deps.log(`child exited: code ${e.code} signal ${e.signal}`);
    this.control.sessionEnded(e);
    this.activity.dispose();
    // Let the model take in the last output, keep the final screen, then say goodbye.
    this.model.whenSettled(() => {
      const saved = saveFinalScreen(this.model, this.deps.finalScreenFile);
      if (!saved.ok) this.deps.log(`could not save the final screen: ${saved.message}`);
      this.captureResumeId();
      this.deps.host.update({ status: 'exited', exitCode: e.code, exitSignal: e.signal, childPid: null, foregroundAgent: undefined }, true);
      for (const c of this.clients) {
        // Live clients get what they have not seen yet before the exit.
        if (c.stream === 'live') {
          for (const chunk of this.ring.since(c.cursor) ?? []) c.send({ type: 'output', seq: chunk.seq, data: chunk.data });
        }
        c.send({ type: 'exit', code: e.code, signal: e.signal });
        c.finish({ type: 'bye', reason: 'exit' });
      }
      this.deps.onFinished();
    });
  }

  /** An agent's lifecycle hook: a status reading and maybe its conversation id (for resume). */
  private onHook(kind: string, event: string, sessionId?: string): void {
    if (kind !== this.record.agent) {
      this.deps.log(`hook ${kind}/${event} ignored: this session runs ${this.record.agent}`);
      return;
    }
    if (!this.activity.hook(event)) this.deps.log(`hook ${kind}/${event}: an event this kind does not use`);
    if (sessionId && sessionId !== this.record.resumeId) this.deps.host.update({ resumeId: sessionId }, true);
  }

  /** What the program printed on its way out may name its conversation (`claude --resume <uuid>`). */
  private captureResumeId(): void {
    const pattern = kindNamed(this.record.agent).resume?.printed;
    if (!pattern) return;
    const m = new RegExp(pattern).exec(tailText(this.model, 60));
    if (m?.[1] && m[1] !== this.record.resumeId) this.deps.host.update({ resumeId: m[1] });
  }
}
