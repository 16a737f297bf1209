/**
 * The runner's one table of client messages, as tmux's command table is: for each type, what it
 * needs before it runs (its gate: said hello, an interactive client, the program still running),
 * which encodings it comes in (the enveloped control command of docs/protocol.md, the legacy
 * plain message, or either) and its one handler. The gate is checked once per message, in
 * dispatch (dispatch.ts, with gate.ts), for both encodings; nothing after it checks again. The
 * legacy and the enveloped form of a command run the same handler; the envelope only adds the
 * acks (`acks` is null for the legacy form and for keystrokes, which are fire-and-forget in both).
 * A refusal says the same thing in either form: an `error` frame for legacy messages and
 * keystrokes, a rejected `cmd_ack` for acknowledged commands (src/runner/control/control.ts).
 */
import type { StatusExplanation } from '../../core/agents/status-explain.js';
import { pickFraming } from '../../core/protocol/binary-framing.js';
import type { Envelope } from '../../core/protocol/control-protocol.js';
import { PROTOCOL_VERSION } from '../../core/protocol/protocol.js';
import type { ClientMessage, ClientMessageType, InputMsg, SubscribeTerminal } from '../../core/protocol/client-messages.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { TermSize } from '../../core/protocol/size.js';
import type { ClientConn } from '../clients/client-conn.js';
import { HANDBACK_TIMEOUT_MS } from '../clients/output-sink.js';

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
  /** Null once the name is on disk; else why not (a bad name, or host.json could not be written: then it is not renamed). */
  rename(name: string): { code: 'invalid_message' | 'cannot_write'; message: string } | null;
  /** Null once resume-after-limit is set on disk (null: off); else why not (host.json could not be written). */
  setResumeAfterLimit(set: { prompt: string; perDay: number } | null): { code: 'cannot_write'; message: string } | null;
  hook(kind: string, event: string, sessionId?: string): void;
  subscribeTerminal(c: ClientConn, msg: SubscribeTerminal): void;
  /** The client leaves: what must reach its terminal first (the attach's note taken away), then `then`. */
  leaving(c: ClientConn, then: () => void): void;
  /** Status pushes from now on; `view`: the watcher's terminal size (src/runner/clients/size-policy.ts). */
  watchStatus(c: ClientConn, view?: TermSize): void;
  reconcile(c: ClientConn, commandId: string | undefined, ids: string[] | undefined): void;
  /**
   * A client's keys, to the program: the one way they reach the PTY, whichever way they came
   * (an `input` in either encoding, or read from the client's terminal: direct input). The
   * client's own size applies first. As bytes, a reader's buffer, reused once this returns.
   */
  type(c: ClientConn, keys: string | Uint8Array): void;
  /** Keys the echo relay typed for this client are in the PTY already: its size applies, as it does before a key of type(). */
  typedByRelay(c: ClientConn): void;
  /** A prompt: journaled, acked, typed once (src/runner/control/durable-inputs.ts). */
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
/** A setting that makes the runner type later: not for a read-only client; the program need not run. */
const SETS_TYPING: Gate = { greeted: true, interactive: true, alive: false };

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
  // A setting of the record, as rename, but one that makes the runner type: a read-only client cannot.
  resume_after_limit: {
    gate: SETS_TYPING,
    envelope: 'legacy',
    handle: (s, { c, msg }) => {
      const bad = s.setResumeAfterLimit(msg.set);
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
      c.detach(); // on purpose: the size it held goes back at once (src/runner/clients/size-policy.ts)
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
