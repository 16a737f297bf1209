/**
 * The runner's one table of client messages: for each type, the gate it must pass (said hello,
 * an interactive client, the program still running), which encodings it comes in (the enveloped
 * control command of docs/protocol.md, the legacy plain message, or either) and its handler. The
 * legacy and the enveloped form of a command run the same handler; the envelope only adds the
 * acks (`acks` is null for the legacy form and for keystrokes, which are fire-and-forget in both).
 * A refusal says the same thing in either form: an `error` frame for legacy messages and
 * keystrokes, a rejected `cmd_ack` for acknowledged commands (src/runner/control.ts).
 */
import type { StatusExplanation } from '../core/agents/status-explain.js';
import { pickFraming } from '../core/protocol/binary-framing.js';
import type { ControlType, Envelope } from '../core/protocol/control-protocol.js';
import { PROTOCOL_VERSION } from '../core/protocol/protocol.js';
import type { ClientMessage, ClientMessageType, InputMsg, SubscribeTerminal } from '../core/protocol/client-messages.js';
import type { ErrorMsg } from '../core/protocol/runner-messages.js';
import type { HostRecord } from '../core/protocol/host-record.js';
import type { TermSize } from '../core/protocol/size.js';
import type { ClientConn } from './client-conn.js';
import { HANDBACK_TIMEOUT_MS } from './direct-terminal.js';

/** What a message must pass before its handler runs. */
export interface Gate {
  /** The client said hello first. */
  greeted: boolean;
  /** The client is interactive (not read-only): the message changes the session. */
  interactive: boolean;
  /** The program still runs. */
  alive: boolean;
}

/** Which encodings a message type comes in. */
export type EnvelopeRule = 'either' | 'legacy';

/** The acks of an enveloped, acknowledged command (absent for legacy messages and keystrokes). */
export interface Acks {
  readonly commandId: string;
  readonly clientId: string;
  /** Done (with the size the PTY has, for a resize). */
  applied(extra?: { cols: number; rows: number }): void;
  /** Also acked `observed` when the program exits (terminate). */
  observeExit(): void;
}

/** What the handlers ask of the session. */
export interface SessionOps {
  readonly generation: string;
  readonly record: HostRecord;
  explain(): StatusExplanation;
  /** A new name for the session; an error line when it is not a valid one. */
  /** Null once the name is on disk; else why not (a bad name, or host.json could not be written: then it is not renamed). */
  rename(name: string): { code: 'invalid_message' | 'cannot_write'; message: string } | null;
  hook(kind: string, event: string, sessionId?: string): void;
  subscribeTerminal(c: ClientConn, msg: SubscribeTerminal): void;
  /** The client leaves: what must reach its terminal first (the attach's note taken away), then `then`. */
  leaving(c: ClientConn, then: () => void): void;
  /** Status pushes from now on; `view`: the watcher's terminal size (src/runner/size-policy.ts). */
  watchStatus(c: ClientConn, view?: TermSize): void;
  reconcile(c: ClientConn, commandId: string | undefined, ids: string[] | undefined): void;
  /** Keystrokes (the client's own size applies first). */
  type(c: ClientConn, data: string): void;
  /** The same, as bytes (keys read from the client's terminal; the buffer is reused once this returns). */
  typeBytes(c: ClientConn, bytes: Uint8Array): void;
  /** Keys the echo relay typed for this client are in the PTY already: its size applies, as it does before a key of typeBytes. */
  typedByRelay(c: ClientConn): void;
  /** A prompt: journaled, acked, typed once (src/runner/durable-inputs.ts). */
  acceptPrompt(acks: Acks, msg: InputMsg): void;
  interrupt(): void;
  redraw(): void;
  terminate(c: ClientConn, signal: string | undefined): void;
  /** The legacy resize: at once. */
  resizeNow(c: ClientConn, cols: number, rows: number): void;
  /** The enveloped resize: latest wins, applied after the burst that carried it. */
  offerResize(c: ClientConn, acks: Acks, cols: number, rows: number): void;
}

export interface Call<M> {
  c: ClientConn;
  msg: M;
  env: Envelope | undefined;
  acks: Acks | null;
}

export interface MessageSpec<M = ClientMessage> {
  gate: Gate;
  envelope: EnvelopeRule;
  /** An enveloped command refused because the program exited is answered `observed` instead (terminate's promise). */
  afterExit?: 'observed';
  handle(s: SessionOps, call: Call<M>): void;
}

type MessageOf<K extends ClientMessageType> = Extract<ClientMessage, { type: K }>;

const ANYONE: Gate = { greeted: true, interactive: false, alive: false };
const CHANGES_SESSION: Gate = { greeted: true, interactive: true, alive: true };

export const MESSAGES: { readonly [K in ClientMessageType]: MessageSpec<MessageOf<K>> } = {
  hello: {
    gate: { greeted: false, interactive: false, alive: false },
    envelope: 'legacy',
    handle: (s, { c, msg }) => {
      if (msg.protocol !== PROTOCOL_VERSION) {
        c.finish({ type: 'error', code: 'unsupported_protocol', message: `runner speaks protocol ${PROTOCOL_VERSION}, client ${msg.protocol}` });
        return;
      }
      // The first hello picks the framing (a later one keeps it); the reply goes in the old one, so any client reads it.
      const framing = c.greeted ? c.framing : pickFraming(msg.framing);
      c.greet({ readOnly: msg.readOnly ?? false, name: msg.client ?? '' });
      c.send({ type: 'hello', protocol: PROTOCOL_VERSION, generation: s.generation, host: s.record, framing: framing === 'ndjson' ? undefined : framing });
      c.useFraming(framing);
    },
  },
  status: { gate: ANYONE, envelope: 'legacy', handle: (s, { c }) => c.send({ type: 'status', host: s.record, generation: s.generation }) },
  explain: { gate: ANYONE, envelope: 'legacy', handle: (s, { c }) => c.send({ type: 'explain', explanation: s.explain() }) },
  subscribe_status: { gate: ANYONE, envelope: 'legacy', handle: (s, { c, msg }) => s.watchStatus(c, msg.view) },
  subscribe_terminal: { gate: ANYONE, envelope: 'legacy', handle: (s, { c, msg }) => s.subscribeTerminal(c, msg) },
  hook: { gate: ANYONE, envelope: 'legacy', handle: (s, { msg }) => s.hook(msg.kind, msg.event, msg.sessionId) },
  rename: {
    gate: ANYONE,
    envelope: 'legacy',
    handle: (s, { c, msg }) => {
      const bad = s.rename(msg.name);
      if (bad) c.send({ type: 'error', ...bad });
      else c.send({ type: 'status', host: s.record, generation: s.generation });
    },
  },
  reconcile: { gate: ANYONE, envelope: 'either', handle: (s, { c, msg, env }) => s.reconcile(c, env?.commandId, msg.commandIds) },
  // A client may always leave, read-only or not, running or not.
  detach: {
    gate: ANYONE,
    envelope: 'either',
    handle: (s, { c, acks }) => {
      c.detach(); // on purpose: the size it held goes back at once (src/runner/size-policy.ts)
      const leave = () => {
        acks?.applied();
        c.finish({ type: 'bye', reason: 'detach' });
      };
      // The attach's note goes first (an exact frame without it); direct output then stops and is
      // handed back (direct_off), so the client restores its terminal after our last byte.
      s.leaving(c, () => {
        if (c.direct) void c.handBack(HANDBACK_TIMEOUT_MS).then(leave);
        else leave();
      });
    },
  },
  input: {
    gate: CHANGES_SESSION,
    envelope: 'either',
    handle: (s, { c, msg, acks }) => (acks ? s.acceptPrompt(acks, msg) : s.type(c, msg.data)),
  },
  resize: {
    gate: CHANGES_SESSION,
    envelope: 'either',
    handle: (s, { c, msg, acks }) => (acks ? s.offerResize(c, acks, msg.cols, msg.rows) : s.resizeNow(c, msg.cols, msg.rows)),
  },
  interrupt: {
    gate: CHANGES_SESSION,
    envelope: 'either',
    handle: (s, { acks }) => {
      s.interrupt();
      acks?.applied();
    },
  },
  redraw: {
    gate: CHANGES_SESSION,
    envelope: 'either',
    handle: (s, { acks }) => {
      s.redraw();
      acks?.applied();
    },
  },
  // Idempotent: the PTY host sends SIGTERM once and keeps the first SIGKILL timer.
  terminate: {
    gate: CHANGES_SESSION,
    envelope: 'either',
    afterExit: 'observed',
    handle: (s, { c, msg, acks }) => {
      s.terminate(c, msg.signal);
      acks?.observeExit();
      acks?.applied();
    },
  },
};

/** The table's row for a message. */
export function specOf(msg: ClientMessage): MessageSpec {
  return MESSAGES[msg.type];
}

/**
 * Why a greeted client may not send this message now (the protocol's code and line), or null.
 * The hello gate comes first, in `dispatch`, for both encodings.
 */
export function gateRefusal(gate: Gate, type: ClientMessageType, c: ClientConn, exited: boolean): { code: 'read_only' | 'session_exited'; message: string } | null {
  if (gate.interactive && c.readOnly) return { code: 'read_only', message: `${type} refused: this client attached read-only` };
  if (gate.alive && exited) return { code: 'session_exited', message: `${type} refused: the session has exited` };
  return null;
}

/** Where enveloped commands go: ordering, fencing, dedup and acks (src/runner/control.ts), then `run`. */
export interface EnvelopedPath {
  admit(c: ClientConn, msg: ClientMessage & { type: ControlType }, env: Envelope, spec: MessageSpec, run: (acks: Acks | null) => void): void;
}

export interface DispatchDeps {
  ops: SessionOps;
  control: EnvelopedPath;
  exited(): boolean;
  now(): number;
}

/** One message from one client, through its row of the table. */
export function dispatch(d: DispatchDeps, c: ClientConn, msg: ClientMessage, env?: Envelope): void {
  const spec = specOf(msg);
  const error = (e: Omit<ErrorMsg, 'type'>): void => c.send({ type: 'error', ...e });
  // Hello first, whatever the encoding; an enveloped command hears about it by its commandId.
  if (spec.gate.greeted && !c.greeted) return error({ code: 'not_hello', message: 'send hello first', commandId: env?.commandId });
  if (env) {
    // The validator only reads envelopes on control types (src/core/protocol/control-protocol.ts): a legacy-only row cannot get one.
    if (spec.envelope === 'legacy') return error({ code: 'invalid_message', message: `${msg.type} takes no envelope`, commandId: env.commandId });
    d.control.admit(c, msg as ClientMessage & { type: ControlType }, env, spec, (acks) => spec.handle(d.ops, { c, msg, env, acks }));
    return;
  }
  const refused = gateRefusal(spec.gate, msg.type, c, d.exited());
  if (refused) return error(refused);
  // A legacy command that changes the session counts as activity for the latest-active resize policy.
  if (spec.gate.interactive) c.touch(d.now());
  spec.handle(d.ops, { c, msg, env: undefined, acks: null });
}

/**
 * Keys read straight from a client's terminal (direct input), typed as the `input` row types
 * them: its gate, the same activity stamp, the client's size first. No message is made or
 * looked up on the way, as this runs for every key the user types. False when the gate refuses:
 * the caller then dispatches an `input` message, which answers why.
 */
export function typeKeys(d: DispatchDeps, c: ClientConn, bytes: Uint8Array): boolean {
  if (!mayTypeKeys(d, c)) return false;
  c.touch(d.now());
  d.ops.typeBytes(c, bytes);
  return true;
}

/** Whether the `input` row's gate lets this client type now (what the echo relay asks before it types for it). */
export function mayTypeKeys(d: DispatchDeps, c: ClientConn): boolean {
  const gate = MESSAGES.input.gate;
  return !((gate.greeted && !c.greeted) || gateRefusal(gate, 'input', c, d.exited()));
}

/** Keys the echo relay typed for this client, at once, as typeKeys would have (src/runner/echo-relay.ts): the same stamp, after the fact. */
export function keysTypedByRelay(d: DispatchDeps, c: ClientConn): void {
  c.touch(d.now());
  d.ops.typedByRelay(c);
}
