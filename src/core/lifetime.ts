/**
 * The one lifetime convention (after xterm.js and node-pty): whatever holds a resource (a
 * listener, a timer, a watcher, a child process, a socket) is a Disposable, registered with its
 * owner's DisposableStore and released by the owner's one `dispose()`. Events are functions that
 * take a listener and return the Disposable that removes it; nobody assigns a callback into
 * someone else's field.
 */

export interface Disposable {
  dispose(): void;
}

/** A Disposable that runs `fn` once, on the first `dispose()`. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Nothing to release: the value for "no resource" where a Disposable is expected. */
export const NONE: Disposable = Object.freeze({ dispose() {} });

/**
 * What an owner holds. `dispose()` releases everything, last added first (a listener on a socket
 * goes before the socket); anything added after that is released at once, so a late callback
 * cannot leak a timer. One release that throws does not stop the others: the first error is
 * thrown after all of them ran.
 */
export class DisposableStore implements Disposable {
  private items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return d;
  }

  /** Releases one item now and forgets it. */
  release(d: Disposable): void {
    if (this.items.delete(d)) d.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items].reverse();
    this.items.clear();
    runAll(items);
  }
}

/** Holds at most one Disposable: setting a new one releases the old (a timer re-armed, a watcher replaced). */
export class MutableDisposable<T extends Disposable = Disposable> implements Disposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(d: T | undefined) {
    if (d === this.current) return;
    const old = this.current;
    this.current = this.disposed ? undefined : d;
    old?.dispose();
    if (this.disposed) d?.dispose();
  }

  /** Releases the held one, if any, and holds nothing. */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }
}

/** Subscribing to an event: the Disposable returned removes the listener. */
export type Event<T> = (listener: (e: T) => void) => Disposable;

/** An event that never fires. */
export const NEVER: Event<never> = () => NONE;

/**
 * The source of one Event. `fire` calls every listener in the order they subscribed; a listener
 * that throws does not stop the rest, and the first error is thrown from `fire` once all ran, so
 * an error is never lost. After `dispose()` nothing more fires and new listeners are not kept.
 */
export class Emitter<T> implements Disposable {
  private listeners: Array<(e: T) => void> = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return NONE;
    this.listeners.push(listener);
    return toDisposable(() => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    });
  };

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(e: T): void {
    if (this.disposed) return;
    const listeners = this.listeners;
    // The output path fires once per PTY chunk, mostly to one listener or none: no copy, no closure.
    if (listeners.length === 0) return;
    if (listeners.length === 1) return listeners[0]!(e);
    let first: { error: unknown } | null = null;
    for (const l of listeners.slice()) {
      try {
        l(e);
      } catch (error) {
        first ??= { error };
      }
    }
    if (first) throw first.error;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/**
 * An Emitter that holds what fires while nobody listens, and gives it to the first listener before
 * anything new (a stream whose first messages came before its reader was wired: a connection's
 * frames after the hello). Ended (`dispose`), it fires no more and drops its listeners, but a late
 * first listener still hears what was held: what came before the end is never lost.
 */
export class BufferedEmitter<T> implements Disposable {
  private readonly inner = new Emitter<T>();
  private held: T[] = [];
  private ended = false;

  readonly event: Event<T> = (listener) => {
    const d = this.inner.event(listener);
    const held = this.held;
    this.held = [];
    for (const e of held) listener(e);
    return d;
  };

  get hasListeners(): boolean {
    return this.inner.hasListeners;
  }

  fire(e: T): void {
    if (this.ended) return;
    if (!this.inner.hasListeners) this.held.push(e);
    else this.inner.fire(e);
  }

  /** Seeds what a first listener hears before anything fired later (items read before this emitter's owner existed). */
  hold(items: readonly T[]): void {
    this.held.push(...items);
  }

  dispose(): void {
    this.ended = true;
    this.inner.dispose();
  }
}

/**
 * An event that happens once (a close, an end): it fires at most once, and a listener that comes
 * after it did is called at once with the same value, so nobody waits for an end that already came.
 */
export class LatchedEmitter<T> implements Disposable {
  private readonly inner = new Emitter<T>();
  private value: { v: T } | null = null;

  readonly event: Event<T> = (listener) => {
    if (this.value) {
      listener(this.value.v);
      return NONE;
    }
    return this.inner.event(listener);
  };

  /** Whether it fired. */
  get fired(): boolean {
    return this.value !== null;
  }

  /** Fires once; false (and nothing) when it had fired. Its listeners are released after. */
  fire(v: T): boolean {
    if (this.value) return false;
    this.value = { v };
    try {
      this.inner.fire(v);
    } finally {
      this.inner.dispose();
    }
    return true;
  }

  dispose(): void {
    this.inner.dispose();
  }
}

function runAll(items: readonly Disposable[]): void {
  let first: { error: unknown } | null = null;
  for (const d of items) {
    try {
      d.dispose();
    } catch (error) {
      first ??= { error };
    }
  }
  if (first) throw first.error;
}
