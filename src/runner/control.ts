import { CommandLedger } from '../core/protocol/command-ledger.js';
import {
  classifyCommand,
  SeqGate,
  type CmdAck,
  type CommandStatus,
  type ControlType,
  type Envelope,
  type RejectCode,
} from '../core/protocol/control-protocol.js';
import type { ClientMessage, InputMsg, ResizeMsg } from '../core/protocol/protocol.js';
import { ResizeTracker } from '../core/terminal/resize-tracker.js';
import type { ClientConn } from './client-conn.js';
import type { DurableInputs } from './durable-inputs.js';
import type { Logger } from './log.js';

/** What the control layer asks of its session; the legacy actions stay there. */
export interface ControlSession {
  readonly id: string;
  readonly generation: string;
  readonly exit: { code: number | null; signal: string | null } | null;
  readonly revision: number;
  readonly lastSeq: number;
  /** Does what a legacy message of this type does (keystroke, interrupt, redraw, terminate, detach). */
  act(c: ClientConn, msg: ClientMessage): void;
  /** Sets this client's size and applies the resize policy; returns the PTY's size after. */
  resizeFor(c: ClientConn, cols: number, rows: number): { cols: number; rows: number };
}

type ControlMsg = ClientMessage & { type: ControlType };

/**
 * Enveloped commands (seed 002): order by seq per connection, fencing by
 * view and instance, dedup by commandId, staged acks to every connection
 * that sent the command, resize latest-wins, terminate observed on exit.
 */
export class Control {
  private readonly ledger = new CommandLedger();
  private readonly resizes = new ResizeTracker();
  private readonly waiters = new Map<string, Set<ClientConn>>();
  private readonly seqGates = new WeakMap<ClientConn, SeqGate>();
  private readonly observing = new Set<string>();
  /** The connection behind each pending resize's clientKey. */
  private readonly resizeConns = new Map<string, ClientConn>();
  private drainScheduled = false;

  constructor(
    private readonly session: ControlSession,
    private readonly prompts: DurableInputs,
    private readonly log: Logger,
  ) {}

  /** Acks from the prompt machinery go where every other ack goes. */
  readonly sendAck = (ack: CmdAck): void => {
    this.ledger.note(ack);
    const to = this.waiters.get(ack.commandId);
    for (const c of to ?? []) c.send(ack);
    const entry = this.ledger.get(ack.commandId);
    if (ack.stage === 'rejected' || !entry || entry.done) this.waiters.delete(ack.commandId);
  };

  handle(c: ClientConn, msg: ControlMsg, env: Envelope): void {
    let gate = this.seqGates.get(c);
    if (!gate) this.seqGates.set(c, (gate = new SeqGate()));
    const order = gate.admit(env.seq);
    if (!order.ok) {
      this.log(`client ${c.id}: ${msg.type} ${env.commandId}: ${order.message}`);
      c.send({ type: 'error', code: 'seq_out_of_order', message: order.message, commandId: env.commandId });
      return;
    }
    if (env.viewId !== this.session.id) {
      return this.reject(c, env.commandId, 'view_mismatch', `this runner serves session ${this.session.id}, not ${env.viewId}`);
    }
    if (env.instanceId !== this.session.generation) {
      return this.reject(c, env.commandId, 'instance_mismatch', `this runner is instance ${this.session.generation}; the session restarted since ${env.instanceId}: reconcile, then send again`);
    }
    if (msg.type === 'reconcile') return this.reconcile(c, env.commandId, msg.commandIds);

    const cls = classifyCommand(msg);
    // Keys come after the resizes sent before them: a burst's resizes are
    // applied at the end of the read, but a program that reads a key and then
    // asks for its size must see the size the client had when it typed.
    if (this.drainScheduled && (cls === 'keystroke' || cls === 'durable_input' || msg.type === 'interrupt')) this.applyPendingResizes();
    if (cls === 'keystroke') {
      // Fire-and-forget, as in the legacy path: no ack, no journal, no ledger.
      if (c.readOnly) c.send({ type: 'error', code: 'read_only', message: 'input refused: this client attached read-only', commandId: env.commandId });
      else if (this.session.exit) c.send({ type: 'error', code: 'session_exited', message: 'input refused: the session has exited', commandId: env.commandId });
      else this.session.act(c, msg);
      return;
    }
    // The same commandId again: its final ack (cached), or join it while in flight.
    if (this.ledger.get(env.commandId)) {
      const again = this.ledger.replay(env.commandId);
      if (again) c.send(again);
      if (!this.ledger.get(env.commandId)?.done) this.waitersOf(env.commandId).add(c);
      return;
    }
    // A prompt the ledger forgot (or an earlier runner instance took) is answered from the journal: never typed twice.
    if (cls === 'durable_input' && this.answerFromJournal(c, env.commandId)) return;
    if (c.readOnly) return this.reject(c, env.commandId, 'read_only', `${msg.type} refused: this client attached read-only`);
    const exit = this.session.exit;
    if (exit && msg.type !== 'terminate' && msg.type !== 'detach') {
      return this.reject(c, env.commandId, 'session_exited', `${msg.type} refused: the session has exited`);
    }
    this.ledger.begin(env.commandId, cls);
    this.waitersOf(env.commandId).add(c);
    const ack = (a: Omit<CmdAck, 'type' | 'commandId'>) => this.sendAck({ type: 'cmd_ack', commandId: env.commandId, ...a });
    switch (msg.type) {
      case 'input':
        this.prompts.accept(env.commandId, env.clientId, msg as InputMsg);
        return;
      case 'resize': {
        const r = msg as ResizeMsg;
        this.resizeConns.set(String(c.id), c);
        const old = this.resizes.offer({ commandId: env.commandId, clientKey: String(c.id), size: { cols: r.cols, rows: r.rows } });
        if (old) this.sendAck({ type: 'cmd_ack', commandId: old.commandId, stage: 'superseded', byCommandId: old.byCommandId });
        this.scheduleResizes();
        return;
      }
      case 'terminate':
        if (exit) return ack({ stage: 'observed', exitCode: exit.code, exitSignal: exit.signal });
        // Idempotent: the PTY host sends SIGTERM once and keeps the first SIGKILL timer.
        this.session.act(c, msg);
        this.observing.add(env.commandId);
        ack({ stage: 'applied' });
        return;
      case 'detach':
        ack({ stage: 'applied' });
        this.session.act(c, msg);
        return;
      default: // interrupt, redraw
        this.session.act(c, msg);
        ack({ stage: 'applied' });
    }
  }

  private answerFromJournal(c: ClientConn, commandId: string): boolean {
    switch (this.prompts.status(commandId)) {
      case 'applied':
        c.send({ type: 'cmd_ack', commandId, stage: 'applied', cached: true });
        return true;
      case 'accepted':
        c.send({ type: 'cmd_ack', commandId, stage: 'accepted' });
        this.waitersOf(commandId).add(c);
        return true;
      case 'accepted_unknown':
        this.reject(c, commandId, 'accepted_unknown', 'an earlier runner of this session accepted this prompt and died before confirming it: it may or may not have been typed, so it is not typed again');
        return true;
      default:
        return false; // unknown, or failed (known not typed): a new attempt
    }
  }

  /** Resizes from one burst are applied once, newest per client, after the burst is read. */
  private scheduleResizes(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => this.applyPendingResizes());
  }

  /** Applies what is pending now (a snapshot must not be drawn at a size about to change). */
  applyPendingResizes(): void {
    this.drainScheduled = false;
    for (const p of this.resizes.drain()) {
      const c = this.resizeConns.get(p.clientKey);
      this.resizeConns.delete(p.clientKey);
      if (!c || this.session.exit) continue;
      const size = this.session.resizeFor(c, p.size.cols, p.size.rows);
      this.sendAck({ type: 'cmd_ack', commandId: p.commandId, stage: 'applied', ...size });
    }
  }

  private reconcile(c: ClientConn, commandId: string | undefined, ids: string[] = []): void {
    c.send({
      type: 'reconcile_result',
      commandId,
      generation: this.session.generation,
      hostRevision: this.session.revision,
      terminalCursor: { lastSeq: this.session.lastSeq },
      unresolved: this.prompts.unresolved(),
      commands: ids.map((id) => ({ commandId: id, status: this.statusOf(id) })),
    });
  }

  /** Answers a legacy (envelope-less) reconcile too: it changes nothing. */
  reconcileLegacy(c: ClientConn, ids?: string[]): void {
    this.reconcile(c, undefined, ids);
  }

  private statusOf(commandId: string): CommandStatus {
    const durable = this.prompts.status(commandId);
    if (durable) return durable;
    const e = this.ledger.get(commandId);
    if (!e) return 'unknown';
    return e.done ? 'applied' : 'accepted';
  }

  /** The child exited: terminates are observed, pending resizes will never apply. */
  sessionEnded(exit: { code: number | null; signal: string | null }): void {
    for (const id of this.observing) this.sendAck({ type: 'cmd_ack', commandId: id, stage: 'observed', exitCode: exit.code, exitSignal: exit.signal });
    this.observing.clear();
    for (const p of this.resizes.drain()) this.reject(null, p.commandId, 'session_exited', 'the session exited before the resize');
    this.prompts.sessionEnded();
  }

  /** A connection closed: it waits for nothing any more. */
  forget(c: ClientConn): void {
    for (const [id, set] of this.waiters) {
      set.delete(c);
      if (set.size === 0 && !this.observing.has(id)) this.waiters.delete(id);
    }
    this.resizeConns.delete(String(c.id));
    const p = this.resizes.forget(String(c.id));
    if (p) this.ledger.note({ type: 'cmd_ack', commandId: p.commandId, stage: 'rejected' });
  }

  private reject(c: ClientConn | null, commandId: string, code: RejectCode, message: string): void {
    const ack: CmdAck = { type: 'cmd_ack', commandId, stage: 'rejected', code, message };
    if (this.waiters.has(commandId)) this.sendAck(ack);
    else c?.send(ack);
  }

  private waitersOf(commandId: string): Set<ClientConn> {
    let set = this.waiters.get(commandId);
    if (!set) this.waiters.set(commandId, (set = new Set()));
    return set;
  }
}
