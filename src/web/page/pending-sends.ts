/**
 * Prompts and review comments the server has not answered yet, kept to be sent again after a
 * reconnect with the same command id (the runner's journal reconciles a resend: it is typed once).
 * A prompt is answered target by target (`sent`); a comment by an `ok` or `error` naming its cmd.
 * The whole message goes again, targets in the same order, since the server may derive each
 * target's command id from its place in the list.
 */
import type { PageMessage, ServerMessage } from '../../core/web/web-protocol.js';

export type Resendable = Extract<PageMessage, { t: 'send' } | { t: 'comment' }>;
type SentStatus = Extract<ServerMessage, { t: 'sent' }>['status'];

/**
 * `unconfirmed`: the server could not tell whether the runner took it (its link dropped): asked
 * again after the next reconnect, which the journal answers without typing it twice.
 */
const settles = (s: SentStatus): boolean => s !== 'unconfirmed';

interface Pending {
  msg: Resendable;
  /** Targets with no settled answer yet. */
  open: Set<string>;
}

export class PendingSends {
  private readonly byCmd = new Map<string, Pending>();

  add(msg: Resendable): void {
    this.byCmd.set(msg.cmd, { msg, open: new Set(msg.t === 'send' ? msg.ids : [msg.id]) });
  }

  /** A `sent` frame: this target of that cmd is answered (unless unconfirmed). */
  sent(cmd: string, id: string, status: SentStatus): void {
    const p = this.byCmd.get(cmd);
    if (!p || !settles(status)) return;
    p.open.delete(id);
    if (p.open.size === 0) this.byCmd.delete(cmd);
  }

  /** An `ok` or `error` naming the cmd answers all of it (a comment taken, or a prompt refused whole). */
  answered(cmd: string): void {
    this.byCmd.delete(cmd);
  }

  has(cmd: string): boolean {
    return this.byCmd.has(cmd);
  }

  /** What to send again on a fresh connection, oldest first. */
  toResend(): Resendable[] {
    return [...this.byCmd.values()].map((p) => p.msg);
  }
}
