import net from 'node:net';
import type { Duplex } from 'node:stream';
import { createFrameDecoder, encodeFrame } from '../core/protocol/frame-decoder.js';
import { PROTOCOL_VERSION, type ClientMessage, type RunnerHello, type RunnerMessage } from '../core/protocol/protocol.js';

/** How long a runner may take to answer hello before we call it unreachable. */
export const HELLO_TIMEOUT_MS = 3000;

export interface ConnectOptions {
  client: string;
  readOnly?: boolean;
  timeoutMs?: number;
}

/**
 * One connection to a runner. Frames come out as `message` events; a line the
 * decoder could not read becomes a `protocol_error` event, never a throw.
 */
export class RunnerConnection {
  private readonly listeners = new Set<(m: RunnerMessage) => void>();
  private readonly closeListeners = new Set<(err: Error | null) => void>();
  private closedWith: { err: Error | null } | null = null;
  /** Messages that came before anyone listened; handed to the first listener. */
  private unheard: RunnerMessage[] = [];
  private readonly batchListeners = new Set<() => void>();
  /** True while the messages of one socket read are being delivered (onBatchEnd follows). */
  private inBatch = false;

  private constructor(readonly socket: Duplex, readonly hello: RunnerHello) {}

  /** Connects to a runner's unix socket. */
  static open(sockPath: string, opts: ConnectOptions): Promise<RunnerConnection> {
    return RunnerConnection.over(net.createConnection(sockPath), opts);
  }

  /**
   * Speaks the protocol over any byte stream: a unix socket, or the stdio of
   * `ssh box agent-board bridge <session>` for a session on another machine.
   */
  static async over(socket: Duplex, opts: ConnectOptions): Promise<RunnerConnection> {
    socket.setEncoding('utf8');
    const decoder = createFrameDecoder();
    let conn: RunnerConnection | null = null;
    let onHello: ((h: RunnerHello) => void) | null = null;
    let onFail: ((e: Error) => void) | null = null;

    socket.on('data', (chunk: string) => {
      try {
        for (const frame of decoder.push(chunk)) {
          if (!frame.ok) continue; // a runner bug; nothing a client could do with it
          const msg = frame.value as RunnerMessage;
          if (!conn) {
            if (msg.type === 'hello') onHello?.(msg);
            else if (msg.type === 'error') onFail?.(new Error(msg.message));
            continue;
          }
          conn.deliver(msg);
        }
      } finally {
        conn?.deliveredBatch();
      }
    });
    const hello = await new Promise<RunnerHello>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('the runner did not answer'));
      }, opts.timeoutMs ?? HELLO_TIMEOUT_MS);
      onHello = (h) => {
        clearTimeout(timer);
        resolve(h);
      };
      onFail = (e) => {
        clearTimeout(timer);
        socket.destroy();
        reject(e);
      };
      socket.once('error', (e) => onFail?.(e));
      socket.once('close', () => onFail?.(new Error('the runner closed the connection')));
      // A socket holds what is written before it connects; a pipe takes it at once.
      socket.write(encodeFrame({ type: 'hello', protocol: PROTOCOL_VERSION, client: opts.client, readOnly: opts.readOnly }));
    });
    socket.removeAllListeners('error');
    socket.removeAllListeners('close');
    conn = new RunnerConnection(socket, hello);
    socket.on('error', (err) => conn!.markClosed(err));
    socket.on('close', () => conn!.markClosed(null));
    return conn;
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  send(message: ClientMessage): void {
    if (!this.closed && this.socket.writable) this.socket.write(encodeFrame(message));
  }

  onMessage(fn: (m: RunnerMessage) => void): () => void {
    this.listeners.add(fn);
    const unheard = this.unheard;
    this.unheard = [];
    for (const m of unheard) fn(m);
    return () => this.listeners.delete(fn);
  }

  /**
   * Called after the messages of one read from the socket have all been
   * delivered: a client that batches work per read (the attach client's
   * terminal writes) can do it then, without waiting for a later tick.
   */
  onBatchEnd(fn: () => void): () => void {
    this.batchListeners.add(fn);
    return () => this.batchListeners.delete(fn);
  }

  /** err is null for an orderly close. Called at once if already closed. */
  onClose(fn: (err: Error | null) => void): () => void {
    if (this.closedWith) {
      fn(this.closedWith.err);
      return () => undefined;
    }
    this.closeListeners.add(fn);
    return () => this.closeListeners.delete(fn);
  }

  close(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** A listener called now will hear onBatchEnd before this read is done. */
  get delivering(): boolean {
    return this.inBatch;
  }

  private deliver(m: RunnerMessage): void {
    this.inBatch = true;
    if (this.listeners.size === 0) this.unheard.push(m);
    for (const fn of this.listeners) fn(m);
  }

  private deliveredBatch(): void {
    if (!this.inBatch) return;
    this.inBatch = false;
    for (const fn of this.batchListeners) fn();
  }

  private markClosed(err: Error | null): void {
    if (this.closedWith) return;
    this.closedWith = { err };
    for (const fn of this.closeListeners) fn(err);
  }
}
