/**
 * Enveloped commands (docs/protocol.md): order by seq per connection, fencing by view and
 * instance, dedup by commandId, staged acks to every connection that sent the command, resize
 * latest-wins, terminate observed on exit. What each command does is its row of the message
 * table (src/runner/control/message-table.ts); this is what the envelope adds around it. Whether the
 * client may send it was decided once, by the table's gate in dispatch (src/runner/control/dispatch.ts):
 * this only answers that decision in the envelope's order (after the seq, the fencing and the
 * dedup), and checks nothing again.
 */
import type { Scheduler } from '../../core/clock.js';
import { CommandLedger } from '../../core/protocol/command-ledger.js';
import {
  classifyCommand,
  SeqGate,
  type CmdAck,
  type CommandStatus,
  type ControlType,
  type Envelope,
  type RejectCode,
} from '../../core/protocol/control-protocol.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import { ResizeTracker } from '../../core/terminal/resize-tracker.js';
import type { ClientConn } from '../clients/client-conn.js';
import type { Logger } from '../log.js';
import type { EnvelopedPath, Permission } from './dispatch.js';
import type { Acks } from './message-table.js';

/** What the control layer asks of its session. */
export interface ControlSession {
  readonly id: string;
  readonly generation: string;
  readonly exit: { code: number | null; signal: string | null } | null;
  readonly revision: number;
  readonly lastSeq: number;
  /** Sets this client's size and applies the resize policy; returns the PTY's size after. */
  resizeFor(c: ClientConn, cols: number, rows: number): { cols: number; rows: number };
}

/** What the control layer asks of the durable prompts (src/runner/control/durable-inputs.ts). */
export interface PromptLedger {
  status(commandId: string): CommandStatus | undefined;
  unresolved(): Array<{ commandId: string; status: 'accepted' | 'accepted_unknown' }>;
  sessionEnded(): void;
}

export interface ControlDeps {
  session: ControlSession;
  prompts: PromptLedger;
  log: Logger;
  scheduler: Scheduler;
  /** Why new prompts are held now (a budget spent: src/runner/session/session-budget.ts), or null; asked per prompt. */
  promptsHeld?: () => string | null;
}

type ControlMsg = ClientMessage & { type: ControlType };

/** The burst that carried a resize is read by the next turn of the event loop: resizes are applied then. */
const AFTER_BURST_MS = 0;

export class Control implements EnvelopedPath, Disposable {
  private readonly ledger = new CommandLedger();
  private readonly resizes = new ResizeTracker();
  private readonly waiters = new Map<string, Set<ClientConn>>();
  private readonly seqGates = new WeakMap<ClientConn, SeqGate>();
  private readonly observing = new Set<string>();
  /** The connection behind each pending resize's clientKey. */
  private readonly resizeConns = new Map<string, ClientConn>();
  private readonly drain = new MutableDisposable();
  private readonly session: ControlSession;
  private readonly prompts: PromptLedger;
  private readonly log: Logger;

  constructor(private readonly d: ControlDeps) {
    this.session = d.session;
    this.prompts = d.prompts;
    this.log = d.log;
  }

  /** Acks from the prompt machinery go where every other ack goes. */
  readonly sendAck = (ack: CmdAck): void => {
    this.ledger.note(ack);
    const to = this.waiters.get(ack.commandId);
    for (const c of to ?? []) c.send(ack);
    const entry = this.ledger.get(ack.commandId);
    if (ack.stage === 'rejected' || !entry || entry.done) this.waiters.delete(ack.commandId);
  };

  admit(c: ClientConn, msg: ControlMsg, env: Envelope, permission: Permission, run: (acks: Acks | null) => void): void {
    let seqGate = this.seqGates.get(c);
    if (!seqGate) this.seqGates.set(c, (seqGate = new SeqGate()));
    const order = seqGate.admit(env.seq);
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
    const cls = classifyCommand(msg);
    if (cls === 'reconcile') return run(null);
    // Keys come after the resizes sent before them: a burst's resizes are
    // applied at the end of the read, but a program that reads a key and then
    // asks for its size must see the size the client had when it typed.
    if (this.drain.value && (cls === 'keystroke' || cls === 'durable_input' || msg.type === 'interrupt')) this.applyPendingResizes();
    const { refused } = permission;
    if (cls === 'keystroke') {
      // Fire-and-forget, as in the legacy form: no ack, no journal, no ledger; a refusal is an error frame.
      if (refused) c.send({ type: 'error', ...refused, commandId: env.commandId });
      else run(null);
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
    const observed = refused?.code === 'session_exited' && permission.observedAfterExit;
    if (refused && !observed) return this.reject(c, env.commandId, refused.code, refused.message);
    // A prompt, from whatever client (send, the board, the web page), is held while a budget is spent; keys never are.
    if (cls === 'durable_input' && msg.type === 'input' && !msg.overBudget) {
      const held = this.d.promptsHeld?.() ?? null;
      if (held !== null) return this.reject(c, env.commandId, 'over_budget', held);
    }
    this.ledger.begin(env.commandId, cls);
    this.waitersOf(env.commandId).add(c);
    const ack = (a: Omit<CmdAck, 'type' | 'commandId'>) => this.sendAck({ type: 'cmd_ack', commandId: env.commandId, ...a });
    // A terminate after the exit: what it asked for has happened; the exit is its answer.
    if (observed) return ack({ stage: 'observed', exitCode: this.session.exit?.code ?? null, exitSignal: this.session.exit?.signal ?? null });
    run({
      commandId: env.commandId,
      clientId: env.clientId,
      applied: (extra) => ack({ stage: 'applied', ...extra }),
      observeExit: () => void this.observing.add(env.commandId),
    });
  }

  /** An enveloped resize: the newest per client wins, applied once the burst is read. */
  offerResize(c: ClientConn, acks: Acks, cols: number, rows: number): void {
    this.resizeConns.set(String(c.id), c);
    const old = this.resizes.offer({ commandId: acks.commandId, clientKey: String(c.id), size: { cols, rows } });
    if (old) this.sendAck({ type: 'cmd_ack', commandId: old.commandId, stage: 'superseded', byCommandId: old.byCommandId });
    if (!this.drain.value) this.drain.value = this.d.scheduler.setTimeout(() => this.applyPendingResizes(), AFTER_BURST_MS);
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

  /** Applies what is pending now (a snapshot must not be drawn at a size about to change). */
  applyPendingResizes(): void {
    this.drain.clear();
    for (const p of this.resizes.drain()) {
      const c = this.resizeConns.get(p.clientKey);
      this.resizeConns.delete(p.clientKey);
      if (!c || this.session.exit) continue;
      const size = this.session.resizeFor(c, p.size.cols, p.size.rows);
      this.sendAck({ type: 'cmd_ack', commandId: p.commandId, stage: 'applied', ...size });
    }
  }

  /** Answers reconcile, enveloped (with its commandId) or legacy: it changes nothing. */
  reconcile(c: ClientConn, commandId: string | undefined, ids: string[] = []): void {
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

  private statusOf(commandId: string): CommandStatus {
    const durable = this.prompts.status(commandId);
    if (durable) return durable;
    const e = this.ledger.get(commandId);
    if (!e) return 'unknown';
    return e.done ? 'applied' : 'accepted';
  }

  /** The child exited: terminates are observed, pending resizes will never apply. */
  sessionEnded(exit: { code: number | null; signal: string | null }): void {
    this.drain.clear();
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

  dispose(): void {
    this.drain.dispose();
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
