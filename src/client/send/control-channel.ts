import crypto from 'node:crypto';
import { withEnvelope, type AckStage, type CmdAck, type ControlType, type ReconcileResult } from '../../core/protocol/control-protocol.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import { DisposableStore, type Disposable } from '../../core/lifetime.js';
import type { RunnerConnection } from '../link/connection.js';

/** One id per client process: the runner's logs and journal name who sent what. */
export const CLIENT_ID = `c-${crypto.randomUUID()}`;

export const newCommandId = (): string => crypto.randomUUID();

/** How a wait for an ack ended: an ack, or a reason there was none (errors as values). */
export type AckOutcome = { ok: true; ack: CmdAck } | { ok: false; reason: 'timeout' | 'closed' | 'error'; message: string };

/** How long a reconcile may take before the connection is judged dead. */
export const RECONCILE_TIMEOUT_MS = 3000;

/** Commands whose acks a channel keeps for late waiters; a long attach sends many resizes. */
const SEEN_LIMIT = 256;

interface Waiter {
  commandId: string;
  stages: readonly AckStage[];
  resolve: (o: AckOutcome) => void;
  timer: Disposable | null;
}

/**
 * Enveloped commands over one connection: seq per connection, instanceId the
 * generation the runner said hello with, acks matched by commandId. When the
 * connection closes every pending wait ends with `closed`, never silence.
 */
export class ControlChannel implements Disposable {
  private seq = 0;
  private readonly waiters = new Set<Waiter>();
  private readonly reconciles = new Map<string, (r: ReconcileResult | null) => void>();
  /** Acks seen per command: a wait that starts after its ack arrived (same socket read) still sees it. */
  private readonly seen = new Map<string, CmdAck[]>();
  private readonly store = new DisposableStore();

  /** Its timeouts run on the connection's scheduler. */
  constructor(readonly conn: RunnerConnection, readonly clientId = CLIENT_ID) {
    this.store.add(conn.onMessage((m) => this.onMessage(m)));
    this.store.add(conn.onClose(() => this.failAll('closed', 'the connection to the session closed')));
  }

  get generation(): string {
    return this.conn.hello.generation;
  }

  /** Sends a control command under commandId (a new one unless given: a retry keeps its id). */
  send(message: ClientMessage & { type: ControlType }, commandId = newCommandId()): string {
    this.conn.send(
      withEnvelope(message, {
        commandId,
        clientId: this.clientId,
        seq: ++this.seq,
        viewId: this.conn.hello.host.id,
        instanceId: this.conn.hello.generation,
      }),
    );
    return commandId;
  }

  /** Resolves with the first ack of commandId in one of `stages` (a rejection always counts). */
  waitFor(commandId: string, stages: readonly AckStage[], timeoutMs: number): Promise<AckOutcome> {
    return new Promise((resolve) => {
      const earlier = this.seen.get(commandId)?.find((a) => a.stage === 'rejected' || stages.includes(a.stage));
      if (earlier) return resolve({ ok: true, ack: earlier });
      if (this.conn.closed) return resolve({ ok: false, reason: 'closed', message: 'the connection to the session closed' });
      const w: Waiter = { commandId, stages, resolve, timer: null };
      w.timer = this.conn.scheduler.setTimeout(() => this.settle(w, { ok: false, reason: 'timeout', message: `no ${stages.join('/')} within ${timeoutMs} ms` }), timeoutMs);
      this.waiters.add(w);
    });
  }

  /** Asks where things stand; null if the connection closed or the answer did not come in time. */
  reconcile(commandIds: string[] = [], timeoutMs = RECONCILE_TIMEOUT_MS): Promise<ReconcileResult | null> {
    return new Promise((resolve) => {
      if (this.conn.closed) return resolve(null);
      const id = newCommandId();
      const done = (r: ReconcileResult | null) => {
        timer.dispose();
        this.reconciles.delete(id);
        resolve(r);
      };
      const timer = this.conn.scheduler.setTimeout(() => done(null), timeoutMs);
      this.reconciles.set(id, done);
      this.send({ type: 'reconcile', commandIds }, id);
    });
  }

  /** Stops listening; every wait still pending ends with `closed`. */
  dispose(): void {
    this.store.dispose();
    this.failAll('closed', 'the channel was closed');
  }

  private onMessage(m: RunnerMessage): void {
    if (m.type === 'reconcile_result') {
      if (m.commandId) this.reconciles.get(m.commandId)?.(m);
      return;
    }
    if (m.type === 'error' && m.commandId) {
      for (const w of this.waiters) {
        if (w.commandId === m.commandId) this.settle(w, { ok: false, reason: 'error', message: m.message });
      }
      return;
    }
    if (m.type !== 'cmd_ack') return;
    const list = this.seen.get(m.commandId) ?? [];
    list.push(m);
    this.seen.set(m.commandId, list);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.keys().next().value as string);
    for (const w of this.waiters) {
      if (w.commandId === m.commandId && (m.stage === 'rejected' || w.stages.includes(m.stage))) this.settle(w, { ok: true, ack: m });
    }
  }

  private settle(w: Waiter, o: AckOutcome): void {
    if (!this.waiters.delete(w)) return;
    w.timer?.dispose();
    w.resolve(o);
  }

  private failAll(reason: 'closed', message: string): void {
    for (const w of [...this.waiters]) this.settle(w, { ok: false, reason, message });
    for (const done of [...this.reconciles.values()]) done(null);
  }
}
