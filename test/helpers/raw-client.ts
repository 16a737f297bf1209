import net from 'node:net';
import { createFrameDecoder, encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { socketPath } from '../../src/state/paths.js';

/**
 * A bare protocol client for tests: raw socket, every message kept in order,
 * and a way to wait for the next one that matches.
 */
export class RawClient {
  readonly messages: RunnerMessage[] = [];
  private waiters: Array<{ pred: (m: RunnerMessage) => boolean; from: number; resolve: (m: RunnerMessage) => void }> = [];
  closed = false;

  private constructor(readonly socket: net.Socket) {
    const decoder = createFrameDecoder();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      for (const f of decoder.push(chunk)) {
        if (!f.ok) throw new Error(`runner sent a bad frame: ${f.message}`);
        this.messages.push(f.value as RunnerMessage);
      }
      this.check();
    });
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static connect(home: string, id: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = net.createConnection(socketPath(home, id));
      s.once('connect', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  static async hello(home: string, id: string, extra: Record<string, unknown> = {}): Promise<RawClient> {
    const c = await RawClient.connect(home, id);
    c.send({ type: 'hello', protocol: 1, client: 'test', ...extra });
    await c.next((m) => m.type === 'hello');
    return c;
  }

  send(msg: unknown): void {
    this.socket.write(encodeFrame(msg));
  }

  raw(text: string): void {
    this.socket.write(text);
  }

  /** The first message matching `pred` from index `from` on (default: not yet awaited). */
  next<T extends RunnerMessage = RunnerMessage>(pred: (m: RunnerMessage) => boolean, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message; got ${JSON.stringify(this.messages.slice(-5)).slice(0, 500)}`)), timeoutMs);
      this.waiters.push({
        pred,
        from: this.cursor,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as T);
        },
      });
      this.check();
    });
  }

  /** Index up to which messages have been handed to a waiter. */
  cursor = 0;

  private check(): void {
    for (const w of [...this.waiters]) {
      for (let i = w.from; i < this.messages.length; i++) {
        if (w.pred(this.messages[i]!)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          this.cursor = Math.max(this.cursor, i + 1);
          w.resolve(this.messages[i]!);
          break;
        }
      }
    }
  }

  /** All output data received so far, in seq order. */
  outputText(): string {
    return this.messages.filter((m) => m.type === 'output').map((m) => (m as { data: string }).data).join('');
  }

  close(): void {
    this.socket.destroy();
  }
}
