/** The runner's connected clients, and what goes to all of them at once (status pushes). */
import type { Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { TermSize } from '../../core/protocol/size.js';
import type { ClientConn } from './client-conn.js';
import { SharedFrame } from './wire-framing.js';

export class ClientSet implements Disposable, Iterable<ClientConn> {
  private readonly conns = new Set<ClientConn>();

  [Symbol.iterator](): Iterator<ClientConn> {
    return this.conns[Symbol.iterator]();
  }

  add(c: ClientConn): void {
    this.conns.add(c);
  }

  /** False when it was not (or no longer) here. */
  remove(c: ClientConn): boolean {
    return this.conns.delete(c);
  }

  /** The largest terminal a connected watcher offered (`subscribe_status`'s view: the board's), or null. */
  largestView(): TermSize | null {
    let best: TermSize | null = null;
    for (const c of this.conns) {
      const v = c.view;
      if (v && !c.closed && (!best || v.cols * v.rows > best.cols * best.rows)) best = v;
    }
    return best;
  }

  /** The interactive client with a size that typed or resized last: whose size the session takes when another leaves. */
  latestSized(): ClientConn | undefined {
    return [...this.conns].filter((o) => o.size && !o.readOnly).sort((a, b) => b.lastActive - a.lastActive)[0];
  }

  /** The host record changed: a `status` to everyone who asked for them, encoded once per framing. */
  pushStatus(host: HostRecord, generation: string): void {
    let frame: SharedFrame | null = null;
    for (const c of this.conns) {
      if (!c.watchesStatus) continue;
      frame ??= new SharedFrame({ type: 'status', host, generation });
      c.sendEncoded(frame);
    }
  }

  dispose(): void {
    for (const c of this.conns) c.dispose();
    this.conns.clear();
  }
}
