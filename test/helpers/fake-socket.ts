import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { createFrameDecoder } from '../../src/core/protocol/frame-decoder.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';

/** Enough of a net.Socket for a ClientConn: frames written are decoded into `sent`; `queued` stands for writableLength. */
export class FakeSocket extends EventEmitter {
  destroyed = false;
  writable = true;
  writableEnded = false;
  queued = 0;
  readonly sent: RunnerMessage[] = [];
  private readonly decoder = createFrameDecoder();

  get writableLength(): number {
    return this.queued;
  }

  write(data: string): boolean {
    for (const f of this.decoder.push(data)) if (f.ok) this.sent.push(f.value as RunnerMessage);
    return true;
  }

  end(data?: string): this {
    if (data) this.write(data);
    this.writableEnded = true;
    this.writable = false;
    return this;
  }

  destroy(): this {
    this.destroyed = true;
    this.writable = false;
    return this;
  }

  setEncoding(): this {
    return this;
  }

  /** Typed as the real thing for the code under test. */
  get asSocket(): net.Socket {
    return this as unknown as net.Socket;
  }
}
