/**
 * What a client does about a command it lost track of. The rule: a
 * durable command is never retried blind; the runner is asked by commandId
 * first, and a command an earlier runner instance may have typed is never
 * sent again.
 */
import { COMMAND_SEMANTICS, type AckStage, type CommandClass, type CommandStatus } from './control-protocol.js';

export type RetryEvent =
  | { type: 'timeout' } // no final ack in time, connection still up
  | { type: 'disconnect' } // the connection went away before a final ack
  | { type: 'reconciled'; status: CommandStatus } // the runner's answer about this commandId
  | { type: 'ack'; stage: AckStage; final: boolean };

export type RetryAction =
  | 'done' // a final answer: stop
  | 'wait' // it is in hand (accepted by this runner instance): wait for the rest
  | 'reconcile' // ask by commandId before anything else
  | 'resend_same_id' // safe: the runner never saw it, or it is idempotent
  | 'resend_new_id' // latest wins: send the current value as a new command
  | 'ambiguous' // it may or may not have happened; never sent again
  | 'drop'; // not worth repeating (keystrokes, interrupts)

export function retryAction(cls: CommandClass, event: RetryEvent): RetryAction {
  const rule = COMMAND_SEMANTICS[cls].retry;
  if (event.type === 'ack') return event.final ? 'done' : 'wait';
  if (event.type === 'timeout' || event.type === 'disconnect') {
    switch (rule) {
      case 'reconcile_first':
        return 'reconcile';
      case 'never':
        return 'drop';
      case 'same_id':
        return 'resend_same_id';
      case 'new_id':
        return 'resend_new_id';
    }
  }
  // reconciled
  if (rule !== 'reconcile_first') return retryAction(cls, { type: 'disconnect' });
  switch (event.status) {
    case 'applied':
    case 'failed':
      return 'done';
    case 'accepted':
      return 'wait';
    case 'accepted_unknown':
      return 'ambiguous';
    case 'unknown':
      return 'resend_same_id';
  }
}
