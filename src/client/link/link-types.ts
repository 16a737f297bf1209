/** The shapes of a RunnerLink (./runner-link.ts): what it holds, its states, why it is down, what it is given. */
import type { Scheduler } from '../../core/clock.js';
import type { Disposable, DisposableStore, Event } from '../../core/lifetime.js';
import type { RetrySchedule } from './retry-schedule.js';

/** What a link holds: anything that delivers messages until it closes. A RunnerConnection is one. */
export interface LinkConnection<M = unknown, E = unknown> extends Disposable {
  readonly onMessage: Event<M>;
  /** Fires once, when it closes (null: an orderly close); at once for one already closed. */
  readonly onClose: Event<Error | null>;
  /** Something it received and could not read; it carries on. */
  readonly onError?: Event<E>;
  /** The orderly close, where it has one: what was written goes out first (RunnerLink.close). */
  close?(): void;
}

export type MessageOf<C> = C extends LinkConnection<infer M, unknown> ? M : never;
export type ErrorOf<C> = C extends LinkConnection<unknown, infer E> ? E : never;

/** Why the line is down. */
export interface LinkFailure {
  /** `unanswered`: a try failed (refused, no answer in time); `closed`: the open connection closed. */
  cause: 'unanswered' | 'closed';
  /** Failures in a row, this one included: a close is the first, each failed try after it one more. */
  failures: number;
  /** The try's error, or the close's (null for an orderly close). */
  error: unknown;
}

export type LinkState =
  /** Not started, or stopped: holds nothing. */
  | { kind: 'idle' }
  /** A try is on its way; `last`: the failure it follows, if any. */
  | { kind: 'connecting'; last: LinkFailure | null }
  | { kind: 'open' }
  /** Down, the next try armed `delayMs` from now (the owner stamps it with its clock, if it shows when). */
  | { kind: 'waiting'; last: LinkFailure; delayMs: number }
  /** Down, and not trying again until `rearm()`. */
  | { kind: 'given-up'; last: LinkFailure }
  | { kind: 'disposed' };

/** A connection the link has just made current; what is added to `held` is released when it stops being current. */
export interface LinkOpened<C> {
  conn: C;
  held: DisposableStore;
}

export interface RunnerLinkDeps<C> {
  /**
   * One try: an open connection (a runner's hello came), or a rejection (refused, silent, gone).
   * What the try holds on its way (a socket, an ssh child) goes in `held`: the link releases it
   * when it abandons the try (a stop, a dispose), which should fail it at once; once the try
   * succeeded, `held` is the connection's (LinkOpened.held), released when it stops being current.
   */
  connect(held: DisposableStore): Promise<C>;
  schedule: RetrySchedule;
  /** The waits between tries: the link's only use of time (it stamps nothing). */
  scheduler: Scheduler;
  /**
   * Asked at each failure before the schedule is: false gives up at once (the session should have
   * no runner any more, the preview turned final). Unset: always try again.
   */
  retryWhen?(failure: LinkFailure): boolean;
}
