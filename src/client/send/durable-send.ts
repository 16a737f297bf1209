/** `send`'s path for a prompt (the CLI's and the board's): typed exactly once, or reported unconfirmed. */
import { retryAction } from '../../core/protocol/control-retry.js';
import type { InputMsg } from '../../core/protocol/client-messages.js';
import { UserError, EXIT } from '../../state/errors.js';
import { sleep } from '../session/client-time.js';
import type { Time } from '../../core/clock.js';
import type { RunnerConnection } from '../link/connection.js';
import { ControlChannel, newCommandId } from './control-channel.js';

/** Waits between reconnects while a prompt's fate is open. */
export const SEND_RETRY_DELAYS_MS = [50, 100, 250, 500, 1000];

export interface DurableSendOptions {
  /** The deadline and the waits between reconnects. */
  time: Time;
  /** Opens a connection; a UserError with EXIT.unknownSession / ambiguousSession ends the send at once. */
  connect: () => Promise<RunnerConnection>;
  text: string;
  submit: boolean;
  whenIdle?: boolean;
  quietMs?: number;
  /** Typed even though a budget the session is under is spent (`send --over-budget`, the board's confirm). */
  overBudget?: boolean;
  /** A retry of an earlier send keeps its id: the runner is asked about it before anything is sent. */
  commandId?: string;
  wait: 'accepted' | 'applied';
  timeoutMs: number;
  retryDelaysMs?: number[];
  /** Each connection as it opens (tests cut them). */
  onConnection?: (conn: RunnerConnection) => void;
}

export type SendOutcome =
  | { status: 'applied' | 'accepted'; commandId: string }
  /** Typed or not, nobody can tell (accepted_unknown), or it was accepted and not confirmed in time. */
  | { status: 'unconfirmed'; commandId: string; message: string }
  /** Known not typed: refused, the session exited first, or no runner could be reached. */
  | { status: 'not_typed'; commandId: string; message: string; exitCode: number };

/**
 * Sends one prompt so that it is typed exactly once or reported unconfirmed
 * (docs/protocol.md's durable input): a lost answer is followed by a reconcile by commandId before
 * anything is sent again, and a prompt an earlier runner instance may have
 * typed is never sent again.
 */
export async function sendDurable(opts: DurableSendOptions): Promise<SendOutcome> {
  const commandId = opts.commandId ?? newCommandId();
  const { clock, scheduler } = opts.time;
  const deadline = clock.now() + opts.timeoutMs;
  const delays = opts.retryDelaysMs ?? SEND_RETRY_DELAYS_MS;
  const msg: InputMsg = { type: 'input', data: opts.text, durable: true, submit: opts.submit, whenIdle: opts.whenIdle, quietMs: opts.quietMs, ...(opts.overBudget ? { overBudget: true } : {}) };
  let askFirst = opts.commandId !== undefined;
  let accepted = false;
  let lastProblem = 'the session could not be reached';
  const notTyped = (message: string, exitCode: number = EXIT.failure): SendOutcome => ({ status: 'not_typed', commandId, message, exitCode });

  for (let attempt = 0; clock.now() < deadline; attempt++) {
    if (attempt > 0) await sleep(scheduler, Math.min(delays[Math.min(attempt - 1, delays.length - 1)]!, Math.max(0, deadline - clock.now())));
    let conn: RunnerConnection;
    try {
      conn = await opts.connect();
    } catch (err) {
      if (err instanceof UserError && (err.exitCode === EXIT.unknownSession || err.exitCode === EXIT.ambiguousSession)) throw err;
      // Nothing sent yet and the session cannot take it (exited, lost): say so now, nothing was typed.
      if (!askFirst && err instanceof UserError) return notTyped(`${err.message}; nothing was typed`, err.exitCode);
      lastProblem = (err as Error).message;
      continue;
    }
    opts.onConnection?.(conn);
    const ch = new ControlChannel(conn);
    try {
      if (askFirst) {
        const r = await ch.reconcile([commandId], Math.max(1, Math.min(3000, deadline - clock.now())));
        if (!r) continue; // the connection went too: try again
        const status = r.commands.find((c) => c.commandId === commandId)?.status ?? 'unknown';
        const action = retryAction('durable_input', { type: 'reconciled', status });
        if (status === 'applied') return { status: 'applied', commandId };
        if (status === 'failed') return notTyped('the session exited before the prompt was typed', EXIT.sessionUnavailable);
        if (action === 'ambiguous') {
          return { status: 'unconfirmed', commandId, message: 'accepted_unknown: the runner restarted after accepting this prompt and before confirming it; it may or may not have been typed, so it is not sent again' };
        }
        // 'unknown' (never reached the runner: safe, the id dedups) or 'accepted' (in hand: the same id joins it).
        if (status === 'accepted' && opts.wait === 'accepted') return { status: 'accepted', commandId };
      }
      ch.send(msg, commandId);
      askFirst = true;
      for (;;) {
        const o = await ch.waitFor(commandId, accepted ? ['applied'] : ['accepted', 'applied'], Math.max(1, deadline - clock.now()));
        if (!o.ok) {
          if (o.reason === 'error') return notTyped(`the session refused the prompt: ${o.message}`);
          lastProblem = o.message;
          if (o.reason === 'timeout') {
            // Out of time: one reconcile says what happened, so the report is exact.
            const r = await ch.reconcile([commandId], 1000);
            const status = r?.commands.find((c) => c.commandId === commandId)?.status;
            if (status === 'applied') return { status: 'applied', commandId };
            if (status === 'unknown') return notTyped(`the runner never received the prompt within ${opts.timeoutMs} ms; nothing was typed`, EXIT.sessionUnavailable);
          }
          break; // closed or timed out: reconcile on a fresh connection before anything else
        }
        const { stage, code, message } = o.ack;
        if (stage === 'rejected') {
          if (code === 'accepted_unknown') return { status: 'unconfirmed', commandId, message: message ?? 'accepted_unknown' };
          return notTyped(message ?? `refused (${code})`, code === 'session_exited' ? EXIT.sessionUnavailable : code === 'journal_unavailable' ? EXIT.cannotWrite : code === 'over_budget' ? EXIT.overBudget : EXIT.failure);
        }
        if (stage === 'applied') return { status: 'applied', commandId };
        accepted = true;
        if (opts.wait === 'accepted') return { status: 'accepted', commandId };
      }
    } finally {
      ch.dispose();
      conn.dispose();
    }
  }
  if (!askFirst) return notTyped(`${lastProblem}; nothing was typed`, EXIT.sessionUnavailable);
  return {
    status: 'unconfirmed',
    commandId,
    message: accepted
      ? `accepted, not confirmed typed within ${opts.timeoutMs} ms; ask again with --command-id ${commandId}`
      : `sent, no answer within ${opts.timeoutMs} ms (${lastProblem}); retry with --command-id ${commandId}: the runner is asked first, so it is never typed twice`,
  };
}
