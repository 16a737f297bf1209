/** Where an attach is in its session's terminal stream, and whether a reconnect can resume from there. */
import type { ReconcileResult } from '../../core/protocol/control-protocol.js';

/**
 * The runner generation the stream came from and the next output seq to show. A reconnect to the
 * same generation whose runner still has every chunk from there resumes (`sinceSeq`); anything
 * else (a new runner: its seqs mean nothing to us) drops the cursor and takes a fresh snapshot.
 */
export class StreamCursor {
  /** The generation of the last frame (snapshot_begin, replay_begin). */
  generation: string | null = null;
  /** The next output seq to show; null: none (before the first frame, or with direct output). */
  nextSeq: number | null = null;

  /** Whether there is anything to resume from. */
  get resumable(): boolean {
    return this.generation !== null && this.nextSeq !== null;
  }

  /** A fresh frame comes: nothing to resume from until it has come. */
  forget(): void {
    this.nextSeq = null;
  }

  /** Output `seq` came: false when it was shown already (a replay's overlap). */
  take(seq: number): boolean {
    if (this.nextSeq !== null && seq < this.nextSeq) return false;
    this.nextSeq = seq + 1;
    return true;
  }

  /**
   * The seq a reconnect resumes from, given the runner's reconcile baseline (null: none in time)
   * and the generation its hello gave; null: a fresh snapshot (and the cursor is dropped).
   */
  resumeFrom(baseline: ReconcileResult | null, helloGeneration: string): number | null {
    const gen = baseline?.generation ?? helloGeneration;
    const next = this.nextSeq;
    if (next !== null && gen === this.generation && baseline !== null && baseline.terminalCursor.lastSeq >= next - 1) return next;
    this.nextSeq = null;
    return null;
  }
}
