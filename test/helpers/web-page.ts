/**
 * A page as the web hub sees one, without a browser: a real `ws` client on a real socket, every
 * server frame kept in order, and waits on the frames a test needs.
 */
import { WebSocket } from 'ws';
import type { PageMessage, ServerMessage } from '../../src/core/web/web-protocol.js';

export class TestPage {
  readonly frames: ServerMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    // Listening from the start: the server's first frames may come in the same read as the upgrade's answer.
    ws.on('message', (data: Buffer) => {
      this.frames.push(JSON.parse(data.toString('utf8')) as ServerMessage);
      this.wake();
    });
    ws.on('close', (code: number, reason: Buffer) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static async open(url: string): Promise<TestPage> {
    const page = new TestPage(new WebSocket(url));
    await new Promise<void>((resolve, reject) => {
      page.ws.once('open', () => resolve());
      page.ws.once('error', reject);
    });
    return page;
  }

  send(m: PageMessage | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(m));
  }

  /** Sends and waits until the frame has left for the kernel: a drop after this still delivers it. */
  sendFlushed(m: PageMessage): Promise<void> {
    return new Promise((resolve, reject) => this.ws.send(JSON.stringify(m), (err) => (err ? reject(err) : resolve())));
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Frames of one type, in order. */
  of<T extends ServerMessage['t']>(t: T): Array<Extract<ServerMessage, { t: T }>> {
    return this.frames.filter((f): f is Extract<ServerMessage, { t: T }> => f.t === t);
  }

  /** Waits until `pred` holds of the frames so far (checked on every frame), at most `ms`. */
  async until<T>(what: string, pred: () => T | undefined | null | false, ms = 15_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = pred();
      if (v) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; last frames: ${JSON.stringify(this.frames.slice(-3)).slice(0, 800)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, Math.min(left, 200));
        function done(): void {
          clearTimeout(t);
          resolve();
        }
        this.waiters.push(done);
      });
    }
  }

  /** The first frame of type `t` after the `from`th frame that `pred` accepts. */
  async next<T extends ServerMessage['t']>(t: T, pred: (f: Extract<ServerMessage, { t: T }>) => boolean = () => true, from = 0): Promise<Extract<ServerMessage, { t: T }>> {
    return this.until(`a ${t} frame`, () => this.frames.slice(from).find((f): f is Extract<ServerMessage, { t: T }> => f.t === t && pred(f as Extract<ServerMessage, { t: T }>)));
  }

  /** Everything the session's terminal got on this page since its last frame: the frame's data, then each out. */
  terminalSince(id: string): string {
    let i = -1;
    this.frames.forEach((f, j) => {
      if (f.t === 'frame' && f.id === id) i = j;
    });
    if (i < 0) return '';
    return this.frames
      .slice(i)
      .map((f) => (f.t === 'frame' && f.id === id ? f.data : f.t === 'out' && f.id === id ? f.data : ''))
      .join('');
  }

  close(): void {
    this.ws.close();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }
}
