/**
 * The page's prompts (`send`, `comment`), exactly once per (command, session): the page names each
 * request with its own command id and sends it again, with the same id, after a reconnect that lost
 * the answer. A request still on its way in this process is joined, not sent again; one that ended
 * is answered from memory; and after a restart of the server the runner's journal answers (the
 * same command id is reconciled first, never typed twice: src/client/send/durable-send.ts).
 *
 * The runner's command id is the page's with a suffix for what it is (`.p` a prompt, `.c` a review
 * comment): each session's journal is its own, so the same id in two sessions never meets, and the
 * id does not depend on where the session was in the page's list of targets.
 */
import type { SendOutcome } from '../../../client/send/durable-send.js';
import type { SessionView } from '../../../state/host-store.js';

/** Requests remembered after they ended, for a page that asks again (the oldest forgotten first; the runner's journal still knows). */
export const REMEMBERED_SENDS = 1024;

export type PromptKind = 'prompt' | 'comment';

export class PromptSends {
  private readonly sends = new Map<string, Promise<SendOutcome>>();
  private readonly done: string[] = [];

  constructor(private readonly sendPrompt: (s: SessionView, text: string, commandId: string) => Promise<SendOutcome>) {}

  /** The outcome of typing `text` into `s` once for the page's `cmd`; never rejects. */
  send(kind: PromptKind, cmd: string, s: SessionView, text: string): Promise<SendOutcome> {
    const commandId = `${cmd}.${kind === 'prompt' ? 'p' : 'c'}`;
    const key = `${s.id}\n${commandId}`;
    const known = this.sends.get(key);
    if (known) return known;
    const p = this.sendPrompt(s, text, commandId).catch(
      (err: unknown): SendOutcome => ({ status: 'not_typed', commandId, message: (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed', exitCode: 1 }),
    );
    this.sends.set(key, p);
    void p.then(() => this.remember(key));
    return p;
  }

  private remember(key: string): void {
    this.done.push(key);
    while (this.done.length > REMEMBERED_SENDS) this.sends.delete(this.done.shift()!);
  }
}

/** A `sent` frame's line for one target. */
export function outcomeLine(name: string, o: SendOutcome): string {
  switch (o.status) {
    case 'applied':
      return `typed into ${name}`;
    case 'accepted':
      return `${name} has it (not typed yet)`;
    case 'unconfirmed':
    case 'not_typed':
      return `${name}: ${o.message}`;
  }
}
