/** What each client message does to the session: the SessionOps the message table's rows call (src/runner/control/message-table.ts). */
import type { StatusExplanation } from '../../core/agents/status-explain.js';
import type { Clock } from '../../core/clock.js';
import type { DirectRequest, InputMsg, SubscribeTerminal } from '../../core/protocol/client-messages.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { normalizeSignal } from '../../core/protocol/signals.js';
import type { TermSize } from '../../core/protocol/size.js';
import { checkSessionName } from '../../core/session-ref.js';
import { cannotWriteMessage } from '../../core/write-failure.js';
import type { ClientConn } from '../clients/client-conn.js';
import type { Logger } from '../log.js';
import { checkGate } from './gate.js';
import { MESSAGES, type Acks, type SessionOps } from './message-table.js';
import type { SizePolicy } from '../clients/size-policy.js';

const ALLOWED_SIGNALS = new Set(['SIGTERM', 'SIGKILL', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGCONT', 'SIGSTOP', 'SIGWINCH']);

export interface HandlerDeps {
  generation: string;
  host: { readonly record: HostRecord; update(patch: Partial<HostRecord>, now?: boolean): void; commit(patch: Partial<HostRecord>): string | null };
  /** host.json's path, for what a failed write says. */
  hostFile: string;
  pty: { write(data: string): void; writeBytes(bytes: Uint8Array): void; terminate(): void; signal(sig: NodeJS.Signals): boolean };
  /** A user asked the program to end (its exit is then a kill: src/runner/session/kill-request.ts). */
  kill: { ask(signal: string, escalates: boolean): void };
  redraw: { jiggle(): void };
  activity: { explain(): StatusExplanation; hook(event: string): boolean };
  /** The terminal stream (terminal-stream.ts): a client joins it (subscribe_terminal), and leaves its note behind when it goes. */
  stream: { join(c: ClientConn, sinceSeq: number | undefined, scrollback: number, hint?: string): void; withoutHint(c: ClientConn, then: () => void): void };
  /** A subscribe's direct-output request, answered (src/runner/direct/direct-terminal.ts): true when the runner writes to the client's terminal. */
  direct(c: ClientConn, req: DirectRequest | undefined): boolean;
  control: {
    applyPendingResizes(): void;
    reconcile(c: ClientConn, commandId: string | undefined, ids: string[] | undefined): void;
    offerResize(c: ClientConn, acks: Acks, cols: number, rows: number): void;
  };
  prompts: { accept(commandId: string, clientId: string, msg: InputMsg): boolean };
  size: SizePolicy;
  clock: Clock;
  log: Logger;
  exited(): boolean;
}

export class MessageHandlers implements SessionOps {
  constructor(private readonly d: HandlerDeps) {}

  get generation(): string {
    return this.d.generation;
  }

  get record(): HostRecord {
    return this.d.host.record;
  }

  explain(): StatusExplanation {
    return this.d.activity.explain();
  }

  rename(name: string): { code: 'invalid_message' | 'cannot_write'; message: string } | null {
    const bad = checkSessionName(name);
    if (bad) return { code: 'invalid_message', message: bad };
    // At once and on disk, or not at all: a rename that says done must be one (a full disk: not renamed).
    const failed = this.d.host.commit({ name });
    if (failed === null) return null;
    return { code: 'cannot_write', message: cannotWriteMessage("the session's record", this.d.hostFile, failed, 'rename it again') };
  }

  setResumeAfterLimit(set: { prompt: string; perDay: number } | null): { code: 'cannot_write'; message: string } | null {
    // On disk, or not at all, as a rename; the runner's resume plans again from the written record (session-limits.ts).
    const failed = this.d.host.commit({ resumeAfterLimit: set ?? undefined });
    if (failed === null) return null;
    return { code: 'cannot_write', message: cannotWriteMessage("the session's record", this.d.hostFile, failed, 'turn it on or off again') };
  }

  /** An agent's lifecycle hook: a status reading and maybe its conversation id (for resume). */
  hook(kind: string, event: string, sessionId?: string): void {
    const agent = this.record.agent;
    if (kind !== agent) {
      this.d.log(`hook ${kind}/${event} ignored: this session runs ${agent}`);
      return;
    }
    if (!this.d.activity.hook(event)) this.d.log(`hook ${kind}/${event}: an event this kind does not use`);
    // A new id where one was known: the user began another conversation (/clear, /resume), no longer the fork's.
    if (sessionId && sessionId !== this.record.resumeId) this.d.host.update({ resumeId: sessionId, ...(this.record.resumeId ? { forkOf: undefined } : {}) }, true);
  }

  subscribeTerminal(c: ClientConn, msg: SubscribeTerminal): void {
    // Resizes still pending from this burst, then this client's own size, come before the frame.
    this.d.control.applyPendingResizes();
    // Only where a `resize` from this client would pass the table's gate (interactive, the program running).
    const mayResize = checkGate(MESSAGES.resize, 'resize', c, this.d.exited(), false) === null;
    if (msg.cols !== undefined && msg.rows !== undefined && mayResize) this.d.size.resizeFor(c, msg.cols, msg.rows);
    // Direct output starts with a fresh frame: the client cannot know what its terminal was last shown.
    const direct = this.d.direct(c, msg.direct);
    this.d.stream.join(c, direct ? undefined : msg.sinceSeq, msg.scrollback ?? 0, msg.hint);
  }

  leaving(c: ClientConn, then: () => void): void {
    this.d.stream.withoutHint(c, then);
  }

  watchStatus(c: ClientConn, view?: TermSize): void {
    c.watchStatus(view);
    c.send({ type: 'status', host: this.record, generation: this.generation });
  }

  reconcile(c: ClientConn, commandId: string | undefined, ids: string[] | undefined): void {
    this.d.control.reconcile(c, commandId, ids);
  }

  type(c: ClientConn, keys: string | Uint8Array): void {
    if (c.size) this.d.size.apply(c.size.cols, c.size.rows);
    if (typeof keys === 'string') this.d.pty.write(keys);
    else this.d.pty.writeBytes(keys);
    c.hint?.key(); // after the key: it goes first, the note's frame after
  }

  typedByRelay(c: ClientConn): void {
    // After the keys, not before: the relay stops typing at every resize until the client types through
    // us again (EchoRelay.resized), and an attach asks for its size before it goes live, so this is a no-op
    // unless another client's resize came between the attach and the client's first key.
    if (c.size) this.d.size.apply(c.size.cols, c.size.rows);
    c.hint?.key();
  }

  acceptPrompt(acks: Acks, msg: InputMsg): void {
    this.d.prompts.accept(acks.commandId, acks.clientId, msg);
  }

  interrupt(): void {
    this.d.pty.write('\x03');
  }

  redraw(): void {
    this.d.redraw.jiggle();
  }

  terminate(c: ClientConn, signal: string | undefined): void {
    const sig = signal === undefined ? undefined : normalizeSignal(signal);
    if (!sig || sig === 'SIGTERM') {
      this.d.log(`terminate requested by client ${c.id}`);
      this.d.kill.ask('SIGTERM', true);
      this.d.pty.terminate();
    } else if (ALLOWED_SIGNALS.has(sig)) {
      this.d.log(`${sig} requested by client ${c.id}`);
      this.d.kill.ask(sig, sig === 'SIGKILL');
      this.d.pty.signal(sig as NodeJS.Signals);
    } else {
      c.send({ type: 'error', code: 'invalid_message', message: `unknown signal "${signal}"; use one of ${[...ALLOWED_SIGNALS].join(', ')}` });
    }
  }

  resizeNow(c: ClientConn, cols: number, rows: number): void {
    this.d.size.resizeFor(c, cols, rows);
  }

  offerResize(c: ClientConn, acks: Acks, cols: number, rows: number): void {
    this.d.control.offerResize(c, acks, cols, rows);
  }
}
