/** How the board feed reports its own failures: a callback that threw (a bug) or a runner's unreadable frame, as onError events. */
import { Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import type { FeedError } from './board-api.js';
import { describeError } from './describe-error.js';

/** What a feed tells a user when one of its callbacks threw (the detail goes to the board log). */
export const FEED_BUG_MESSAGE = 'the board hit an internal error following the sessions (details in board.log); it carries on';

/** The feed's onError events: what threw, and what went wrong that only a developer needs. */
export class FeedErrors implements Disposable {
  private readonly errors = new Emitter<FeedError>();

  readonly event: Event<FeedError> = (fn) => this.errors.event(fn);

  /**
   * Never out of an event handler: one bad session (or a bug) must not stop the board. What
   * threw is an onError event: its detail for the board log, one line for the user.
   */
  guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.errors.fire({ detail: `board feed: ${what} threw: ${describeError(err)}`, userMessage: FEED_BUG_MESSAGE });
    }
  }

  /** A problem only a developer needs (a runner's bad frame): the board log alone. */
  problem(detail: string): void {
    this.errors.fire({ detail });
  }

  dispose(): void {
    this.errors.dispose();
  }
}
