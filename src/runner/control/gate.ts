/**
 * The message table's gate (src/runner/control/message-table.ts), as tmux's server checks a command's
 * flags before it runs it: what a message needs of the client that sent it and of the session,
 * and the refusal, with the protocol's code and line, when it does not have it. This is the one
 * place the check is made; dispatch (dispatch.ts) asks it once per message, in both encodings,
 * and direct input and the echo relay ask it for their keys (the `input` row).
 */
import type { ClientMessageType } from '../../core/protocol/client-messages.js';
import type { ClientProfile } from '../clients/client-profile.js';
import type { MessageSpec } from './message-table.js';

/** A refusal of the frame itself: answered at once with an `error`, in either encoding. */
export interface FrameRefusal {
  code: 'not_hello' | 'invalid_message';
  message: string;
}

/**
 * A refusal of what the client may do now: at once for a legacy message; for an enveloped one
 * after the envelope's order, fencing and dedup (src/runner/control/control.ts), so a command retried
 * after the exit still hears that it was applied, and one for another session hears that first.
 */
export interface PermissionRefusal {
  code: 'read_only' | 'session_exited';
  message: string;
}

export type Refusal = FrameRefusal | PermissionRefusal;

/** What the gate reads of a client: what its hello said. */
export type GateClient = Pick<ClientProfile, 'greeted' | 'readOnly'>;

/**
 * Why `type` may not run now, or null: the client said hello first (unless the row is hello's),
 * an envelope only where the row takes one, an interactive client for what changes the session,
 * a running program for what needs one. In that order, which the protocol's answers follow.
 */
export function checkGate(spec: Pick<MessageSpec, 'gate' | 'envelope'>, type: ClientMessageType, c: GateClient, exited: boolean, enveloped: boolean): Refusal | null {
  const g = spec.gate;
  if (g.greeted && !c.greeted) return { code: 'not_hello', message: 'send hello first' };
  if (enveloped && spec.envelope === 'legacy') return { code: 'invalid_message', message: `${type} takes no envelope` };
  if (g.interactive && c.readOnly) return { code: 'read_only', message: `${type} refused: this client attached read-only` };
  if (g.alive && exited) return { code: 'session_exited', message: `${type} refused: the session has exited` };
  return null;
}

/** The refusals an enveloped command hears in the envelope's order rather than at once. */
export function isPermissionRefusal(r: Refusal): r is PermissionRefusal {
  return r.code === 'read_only' || r.code === 'session_exited';
}
