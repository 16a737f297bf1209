/**
 * Latest-wins for resizes. A window being dragged sends a burst of sizes; the
 * runner applies only the newest from each client (once per turn of its event
 * loop) and tells the older ones they were superseded, naming the newer one.
 */
import type { TermSize } from '../protocol/size.js';

export interface PendingResize {
  commandId: string;
  clientKey: string;
  size: TermSize;
}

export interface Supersession {
  commandId: string;
  byCommandId: string;
}

export class ResizeTracker {
  private readonly pending = new Map<string, PendingResize>();

  /** Queues a resize; an un-applied older one from the same client is superseded by it. */
  offer(resize: PendingResize): Supersession | null {
    const older = this.pending.get(resize.clientKey);
    // Re-inserted so the drain order is the order of the newest requests.
    this.pending.delete(resize.clientKey);
    this.pending.set(resize.clientKey, resize);
    // The same command again (a repeat) does not supersede itself.
    return older && older.commandId !== resize.commandId ? { commandId: older.commandId, byCommandId: resize.commandId } : null;
  }

  /** Everything to apply now, oldest request first; the tracker is empty after. */
  drain(): PendingResize[] {
    const all = [...this.pending.values()];
    this.pending.clear();
    return all;
  }

  /** A client left: its pending resize will never be applied. */
  forget(clientKey: string): PendingResize | undefined {
    const p = this.pending.get(clientKey);
    this.pending.delete(clientKey);
    return p;
  }

  get size(): number {
    return this.pending.size;
  }
}
