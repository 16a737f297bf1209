/**
 * Where every client message goes through the message table (message-table.ts): its row's gate
 * checked once (gate.ts), then its handler, at once for the legacy form, through the control
 * layer's order, fencing, dedup and acks for the enveloped one (src/runner/control/control.ts, which
 * checks nothing again). Keys read straight from a client's terminal (direct input) and the echo
 * relay's come through the same gate, the `input` row's, and reach the program through the same
 * handler (SessionOps.type); only the relay's thread types before it is asked (below).
 */
import type { ControlType, Envelope } from '../../core/protocol/control-protocol.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { ClientConn } from '../clients/client-conn.js';
import { checkGate, isPermissionRefusal, type PermissionRefusal } from './gate.js';
import { MESSAGES, type Acks, type MessageSpec, type SessionOps } from './message-table.js';

/** What the gate said of an enveloped command, for the control layer to answer in the envelope's order. */
export interface Permission {
  /** The client may not do this now (null: it may). */
  refused: PermissionRefusal | null;
  /** Refused because the program exited, it is answered `observed` instead (terminate's promise). */
  observedAfterExit: boolean;
}

/** Where enveloped commands go: ordering, fencing, dedup and acks (src/runner/control/control.ts), then `run`. */
export interface EnvelopedPath {
  admit(c: ClientConn, msg: ClientMessage & { type: ControlType }, env: Envelope, permission: Permission, run: (acks: Acks | null) => void): void;
}

export interface DispatchDeps {
  ops: SessionOps;
  control: EnvelopedPath;
  exited(): boolean;
  now(): number;
}

/** One message from one client, through its row of the table. */
export function dispatch(d: DispatchDeps, c: ClientConn, msg: ClientMessage, env?: Envelope): void {
  const spec = MESSAGES[msg.type] as MessageSpec;
  const refused = checkGate(spec, msg.type, c, d.exited(), env !== undefined);
  if (env && (!refused || isPermissionRefusal(refused))) {
    // The validator only reads envelopes on control types (src/core/protocol/control-protocol.ts), and the gate refused any other.
    const permission = { refused, observedAfterExit: spec.afterExit === 'observed' };
    d.control.admit(c, msg as ClientMessage & { type: ControlType }, env, permission, (acks) => spec.handle(d.ops, { c, msg, env, acks }));
    return;
  }
  // An enveloped command hears of its refusal by its commandId; a legacy message's error has none.
  if (refused) return c.send({ type: 'error', ...refused, ...(env ? { commandId: env.commandId } : {}) });
  // A legacy command that changes the session counts as activity for the latest-active resize policy.
  if (spec.gate.interactive) c.touch(d.now());
  spec.handle(d.ops, { c, msg, env: undefined, acks: null });
}

/**
 * Keys read straight from a client's terminal (direct input), typed as the `input` row types
 * them: its gate, the same activity stamp, the same handler. No message is made or looked up on
 * the way, as this runs for every key the user types. False when the gate refuses: the caller
 * then dispatches an `input` message, which answers why.
 */
export function typeKeys(d: DispatchDeps, c: ClientConn, bytes: Uint8Array): boolean {
  if (!mayTypeKeys(d, c)) return false;
  c.touch(d.now());
  d.ops.type(c, bytes);
  return true;
}

/** Whether the `input` row's gate lets this client type now (what the echo relay asks before its thread may type for it). */
export function mayTypeKeys(d: DispatchDeps, c: ClientConn): boolean {
  return checkGate(MESSAGES.input, 'input', c, d.exited(), false) === null;
}

/**
 * Keys the echo relay's thread typed for this client (src/runner/direct/echo-relay.ts): the relay is the
 * fast path, which types before JavaScript hears of the keys, and only while mayTypeKeys said yes
 * (asked again whenever its answer can change: DirectTerminal.mayTypeChanged). Here they get, after
 * the fact, what typeKeys gives a key before: the activity stamp, and the client's size.
 */
export function keysTypedByRelay(d: DispatchDeps, c: ClientConn): void {
  c.touch(d.now());
  d.ops.typedByRelay(c);
}
