/** Keys typed from the board into a running session, over one connection (the board's digits and type-through). */
import type { RunnerConnection } from '../link/connection.js';
import type { SessionInput } from '../feed/board-api.js';
import { DisposableStore, Emitter, NONE, type Event } from '../../core/lifetime.js';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';

/**
 * A SessionInput over one runner connection (interactive, never read-only,
 * and never resizing: a client that sends no size leaves the PTY's alone).
 * Keys written while it connects are queued and go first, in order. It ends,
 * once, when the connection cannot be made, closes, or the program exits;
 * the owner still calls close().
 */
export class ConnectedInput implements SessionInput {
  private conn: RunnerConnection | null = null;
  private queue: string[] = [];
  private readonly ends = new Emitter<string>();
  private listening = new DisposableStore();
  private endedWith: string | null = null;
  private closed = false;

  constructor(connect: () => Promise<RunnerConnection>, private readonly name: string) {
    connect().then(
      (conn) => this.opened(conn),
      (err) => this.end(errorText(err)),
    );
  }

  get ended(): boolean {
    return this.endedWith !== null || this.closed;
  }

  write(data: string): void {
    if (this.ended || data === '') return;
    if (this.conn) this.conn.send({ type: 'input', data });
    else this.queue.push(data);
  }

  /** Fires once, with why; told at once to a listener that comes after the end. */
  readonly onEnd: Event<string> = (fn) => {
    if (this.endedWith !== null) {
      fn(this.endedWith);
      return NONE;
    }
    return this.ends.event(fn);
  };

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.release();
    this.ends.dispose();
  }

  private opened(conn: RunnerConnection): void {
    if (this.ended) {
      conn.close();
      return;
    }
    this.conn = conn;
    this.listening.add(
      conn.onMessage((m) => {
        if (m.type === 'exit') this.end(`${this.name} exited ${m.signal ? `(killed by ${m.signal})` : `with code ${m.code}`}`);
        else if (m.type === 'error') this.end(`${this.name}: ${m.message}`);
      }),
    );
    this.listening.add(conn.onClose(() => this.end(`the connection to ${this.name} closed`)));
    for (const data of this.queue.splice(0)) conn.send({ type: 'input', data });
  }

  private end(message: string): void {
    if (this.ended) return;
    this.endedWith = message;
    this.release();
    this.ends.fire(message);
    this.ends.dispose();
  }

  private release(): void {
    this.listening.dispose();
    this.listening = new DisposableStore();
    this.queue = [];
    // close, not destroy: keys written just before (a digit, then the board moves on) still go out.
    this.conn?.close();
    this.conn = null;
  }
}
