import type { Disposable } from '../../core/lifetime.js';
import type { SessionView } from '../../state/host-store.js';
import type { SessionInput } from '../feed/board-api.js';

/**
 * The board's keys connection: one at a time, to the session keys last went
 * to (a dialog's digit, type-through), kept open so keys typed one after the
 * other arrive in order. Going to another session closes it; so does the
 * board, when it leaves or unmounts (Board owns this).
 */
export class SessionKeys implements Disposable {
  private link: { id: string; input: SessionInput } | null = null;

  constructor(private readonly open: (s: SessionView) => SessionInput) {}

  /** The input to `s`: the open one, unless it ended, else a new one. */
  to(s: SessionView): SessionInput {
    if (this.link && this.link.id === s.id && !this.link.input.ended) return this.link.input;
    this.link?.input.close();
    this.link = { id: s.id, input: this.open(s) };
    return this.link.input;
  }

  /** Closes the open input (what was written still goes out). */
  dispose(): void {
    this.link?.input.close();
    this.link = null;
  }
}
