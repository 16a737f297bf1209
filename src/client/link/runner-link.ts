/**
 * One line to a runner, kept up: the one reconnect loop of the clients (the board's status link
 * and preview, another machine's feed, the attach). It connects; when a try fails or the open
 * connection closes it waits along its RetrySchedule (./retry-schedule.ts) and tries again, or
 * gives up when the schedule runs out or its owner says the session is over.
 *
 * What comes on the line goes out as the link's own events, and only from the current
 * connection: every try, close, stop and dispose moves the link to a new epoch, and a connection
 * made in an earlier one (a slow try that lost the race, a socket of a runner that was replaced,
 * a socket closed under us that still had data) is closed on arrival and never delivers into the
 * current one. Nothing is held while it is idle or has given up; `dispose()` ends it all at once.
 */
import { DisposableStore, Emitter, MutableDisposable, toDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import type { ErrorOf, LinkConnection, LinkFailure, LinkOpened, LinkState, MessageOf, RunnerLinkDeps } from './link-types.js';
import { retryDelay } from './retry-schedule.js';

export class RunnerLink<C extends LinkConnection> implements Disposable {
  private readonly states = new Emitter<LinkState>();
  private readonly opens = new Emitter<LinkOpened<C>>();
  private readonly messages = new Emitter<MessageOf<C>>();
  private readonly errors = new Emitter<ErrorOf<C>>();
  /** Every state change: a try, the line up, down (waiting or given up), idle, disposed. */
  readonly onStateChange: Event<LinkState> = this.states.event;
  /** A connection became current (after `onStateChange` said open); its messages follow. */
  readonly onOpen: Event<LinkOpened<C>> = this.opens.event;
  /** A message of the current connection; never one of an earlier connection. */
  readonly onMessage: Event<MessageOf<C>> = this.messages.event;
  /** A frame the current connection could not read (it carries on). */
  readonly onError: Event<ErrorOf<C>> = this.errors.event;
  private now: LinkState = { kind: 'idle' };
  /** Moved on by every try, close, stop and dispose: what carries an older epoch is stale. */
  private epoch = 0;
  private live: C | null = null;
  /** The current connection, our listeners on it and what the owner added (LinkOpened.held). */
  private readonly held = new MutableDisposable<DisposableStore>();
  private readonly retry = new MutableDisposable();
  /** The connection `close()` lets go the orderly way rather than dropping it. */
  private closing: C | null = null;

  constructor(private readonly d: RunnerLinkDeps<C>) {}

  get state(): LinkState {
    return this.now;
  }

  /** The open connection, or null. */
  get current(): C | null {
    return this.live;
  }

  /** Whether `conn` is still the link's connection (an owner's async step checks before it goes on). */
  isCurrent(conn: C): boolean {
    return this.live === conn;
  }

  /** Connect, unless connected, on the way, waiting to retry, or given up (see rearm). */
  start(): void {
    if (this.now.kind === 'idle') this.attempt(null);
  }

  /** News (host.json changed, the session selected again): a link that gave up may be started again. */
  rearm(): void {
    if (this.now.kind === 'given-up') this.set({ kind: 'idle' });
  }

  /**
   * A connection made outside the link becomes its current one, as if the link had made it: the
   * attach's first, which carries the first subscribe with its hello and whose failure is the
   * caller's to report. Only an idle link adopts; anything else is a bug, and throws.
   */
  adopt(conn: C): void {
    if (this.now.kind !== 'idle') {
      conn.dispose();
      throw new Error(`a link that is ${this.now.kind} cannot adopt a connection`);
    }
    this.opened(conn, ++this.epoch);
  }

  /** Drops the connection, a try on its way and a retry armed: idle, holding nothing. */
  stop(): void {
    if (this.now.kind === 'disposed') return;
    this.drop();
    if (this.now.kind !== 'idle') this.set({ kind: 'idle' });
  }

  /**
   * Ends everything as dispose does, except that the current connection closes the orderly way
   * (LinkConnection.close): the attach's last words (a detach) reach the runner before the socket ends.
   */
  close(): void {
    this.closing = this.live;
    this.dispose();
  }

  /** Ends everything: the connection closed, the retry cancelled, a try on its way closed when it comes, no event after. */
  dispose(): void {
    if (this.now.kind === 'disposed') return;
    this.drop();
    this.retry.dispose();
    this.held.dispose();
    try {
      this.set({ kind: 'disposed' });
    } finally {
      for (const e of [this.states, this.opens, this.messages, this.errors]) e.dispose();
    }
  }

  private attempt(last: LinkFailure | null): void {
    const epoch = ++this.epoch;
    try {
      this.set({ kind: 'connecting', last });
    } finally {
      if (epoch === this.epoch) this.launch(epoch, last); // unless a listener stopped it
    }
  }

  private launch(epoch: number, last: LinkFailure | null): void {
    const held = (this.held.value = new DisposableStore());
    let pending: Promise<C>;
    try {
      pending = this.d.connect(held);
    } catch (error) {
      // A try that throws at once (no ssh to spawn) fails like any other: after this call, as a promise's would.
      pending = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    pending.then(
      (conn) => {
        if (epoch === this.epoch) this.opened(conn, epoch, held);
        else conn.dispose(); // a try from before a stop, a dispose or a newer try: never current
      },
      (error: unknown) => {
        // A stale try's failure is nobody's news: the link has moved on.
        if (epoch !== this.epoch) return;
        this.held.clear();
        this.failed({ cause: 'unanswered', failures: (last?.failures ?? 0) + 1, error });
      },
    );
  }

  private opened(conn: C, epoch: number, held = new DisposableStore()): void {
    this.held.value = held;
    held.add(toDisposable(() => (conn === this.closing && conn.close ? conn.close() : conn.dispose())));
    this.live = conn;
    /** Messages that came with the connection (a pipelined subscribe's answers): delivered once the owner has set up (onOpen). */
    let early: MessageOf<C>[] | null = [];
    held.add(
      conn.onMessage((m) => {
        if (epoch !== this.epoch) return;
        if (early) early.push(m as MessageOf<C>);
        else this.messages.fire(m as MessageOf<C>);
      }),
    );
    if (conn.onError) {
      held.add(
        conn.onError((e) => {
          if (epoch === this.epoch) this.errors.fire(e as ErrorOf<C>);
        }),
      );
    }
    // The owner's listeners may throw: the line is looked after all the same, and the first error rethrown last.
    const thrown: unknown[] = [];
    const run = (fn: () => void) => {
      try {
        if (epoch === this.epoch) fn();
      } catch (error) {
        thrown.push(error);
      }
    };
    run(() => this.set({ kind: 'open' }));
    run(() => this.opens.fire({ conn, held }));
    const first = early;
    early = null;
    for (const m of first) run(() => this.messages.fire(m));
    // Last: a connection that closed meanwhile says so at once, and the link moves on.
    run(() =>
      held.add(
        conn.onClose((err) => {
          if (epoch === this.epoch) this.closed(err);
        }),
      ),
    );
    if (thrown.length > 0) throw thrown[0];
  }

  private closed(error: Error | null): void {
    this.drop();
    this.failed({ cause: 'closed', failures: 1, error });
  }

  /** The line is down: ask the owner, then wait along the schedule or give up. */
  private failed(f: LinkFailure): void {
    const epoch = this.epoch;
    let again: boolean;
    try {
      again = this.d.retryWhen?.(f) ?? true;
    } catch (err) {
      if (epoch === this.epoch && this.now.kind !== 'disposed') this.set({ kind: 'given-up', last: f });
      throw err;
    }
    if (epoch !== this.epoch || this.now.kind === 'disposed') return; // the owner stopped or disposed it meanwhile
    const delay = again ? retryDelay(this.d.schedule, f.failures) : undefined;
    if (delay === undefined) {
      this.set({ kind: 'given-up', last: f });
      return;
    }
    this.retry.value = this.d.scheduler.setTimeout(() => {
      this.retry.clear();
      if (epoch === this.epoch) this.attempt(f);
    }, delay);
    this.set({ kind: 'waiting', last: f, delayMs: delay });
  }

  /** Whatever the link held goes, and whatever was on its way is stale. */
  private drop(): void {
    this.epoch++;
    this.retry.clear();
    this.live = null;
    this.held.clear();
  }

  private set(s: LinkState): void {
    this.now = s;
    this.states.fire(s);
  }
}
