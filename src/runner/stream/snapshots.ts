/**
 * Gives a client the screen as it is now, then puts it on the live stream.
 *
 * The frame is taken at a chunk boundary outside any synchronized update, at
 * the client's own size (it resized before subscribing). The screen goes
 * first, so an attach shows its first frame at once; history, when asked
 * for, follows in slices on later turns of the event loop while the model is
 * frozen, so no slice blocks the runner for long and line numbers stay put.
 */
import type { Scheduler } from '../../core/clock.js';
import type { DisposableStore } from '../../core/lifetime.js';
import type { RingChunk } from '../../core/terminal/output-ring.js';
import type { ClientConn } from '../clients/client-conn.js';
import { HISTORY_SLICE_LINES } from '../model/terminal-model.js';

/** What a snapshot reads of the model. */
export interface SnapshotModel {
  whenSettled(fn: () => void): void;
  readonly parsedSeq: number;
  readonly historyLength: number;
  readonly term: { readonly cols: number; readonly rows: number };
  screenFrame(overlay?: string): string;
  historySlice(start: number, end: number): string;
  freeze(): void;
  thaw(): void;
}

/** What a snapshot needs: the model, the ring (for what arrived meanwhile), the instance, time. */
export interface SnapshotSource {
  readonly model: SnapshotModel;
  readonly ring: { since(seq: number): RingChunk[] | null; readonly nextSeq: number };
  readonly generation: string;
  readonly scheduler: Scheduler;
  /** Owns the slice timers (the session's): a closed client's next slice still runs, to thaw the model. */
  readonly timers: DisposableStore;
}

/** The next history slice goes on the next turn of the event loop (others' I/O runs in between). */
const NEXT_SLICE_MS = 0;

/** `overlay`: a note drawn over this client's frame only (src/runner/stream/attach-hint.ts); `onLive`: called once the client is live again. */
export function sendSnapshot(src: SnapshotSource, c: ClientConn, historyWanted: number, overlay?: string, onLive?: () => void): void {
  if (!c.beginSnapshot().ok) return; // refused and logged by the connection
  const { model } = src;
  model.whenSettled(() => {
    if (c.closed) return;
    const seq = model.parsedSeq;
    const total = model.historyLength;
    const lines = Math.min(historyWanted, total);
    c.send({
      type: 'snapshot_begin',
      seq,
      cols: model.term.cols,
      rows: model.term.rows,
      generation: src.generation,
      historyLines: lines,
    });
    c.sendScreen(model.screenFrame(overlay)); // to the client's terminal itself, for direct output
    if (lines === 0) {
      goLive(src, c, seq, onLive);
      return;
    }
    model.freeze();
    let at = total - lines;
    const step = () => {
      if (c.closed) {
        model.thaw();
        return;
      }
      const end = Math.min(total, at + HISTORY_SLICE_LINES);
      c.send({ type: 'snapshot_history', data: model.historySlice(at, end) });
      at = end;
      if (at < total) {
        later(src, step);
        return;
      }
      model.thaw();
      goLive(src, c, seq, onLive);
    };
    later(src, step);
  });
}

function later(src: SnapshotSource, fn: () => void): void {
  const t = src.timers.add(
    src.scheduler.setTimeout(() => {
      src.timers.release(t);
      fn();
    }, NEXT_SLICE_MS),
  );
}

function goLive(src: SnapshotSource, c: ClientConn, seq: number, onLive?: () => void): void {
  c.send({ type: 'snapshot_end', nextSeq: seq });
  const missed = src.ring.since(seq);
  if (missed === null) {
    // So much output arrived meanwhile that the ring let go of it: start over.
    sendSnapshot(src, c, 0, undefined, onLive);
    return;
  }
  c.goLive(seq, missed);
  onLive?.();
}
