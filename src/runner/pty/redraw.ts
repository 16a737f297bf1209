/** The redraw a kind needs (a size jiggle or a SIGWINCH), for a client's `redraw`. */
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import { kindNamed } from '../../state/kind-files.js';
import { sendSignal } from '../../state/process/signal.js';
import { MIN_COLS } from '../../core/protocol/protocol.js';

/** What a redraw does to the PTY. */
export interface RedrawPty {
  resize(cols: number, rows: number): void;
  foregroundGroup(): number | null;
}

/**
 * How long a size jiggle keeps the PTY a column narrower. Long enough for a
 * busy Node program to handle the first SIGWINCH and read the odd size (Node
 * ignores a SIGWINCH whose size did not change); the recordings' operator
 * took about 150 ms.
 */
export const JIGGLE_RESTORE_MS = 100;

/**
 * Makes the program redraw without changing what anyone sees: `size` takes
 * the PTY one column narrower and back after JIGGLE_RESTORE_MS (the model
 * keeps its size, so nothing reflows); `winch` signals the foreground
 * process group with the size unchanged, as dtach does.
 */
export class Redraw implements Disposable {
  private readonly timer = new MutableDisposable();

  constructor(
    private readonly pty: RedrawPty,
    private readonly current: () => { agent: string; cols: number; rows: number },
    private readonly scheduler: Scheduler,
  ) {}

  dispose(): void {
    this.timer.dispose();
  }

  jiggle(): void {
    const { agent, cols, rows } = this.current();
    if (kindNamed(agent).jiggle === 'winch') {
      const pgrp = this.pty.foregroundGroup();
      if (pgrp) {
        // Gone (the group just went away), or refused (a job run as another user, under sudo): nobody of ours to redraw.
        sendSignal({ group: pgrp }, 'SIGWINCH');
      }
      return;
    }
    if (this.timer.value) return; // one in flight already does the job
    this.pty.resize(Math.max(MIN_COLS, cols - 1), rows);
    this.timer.value = this.scheduler.setTimeout(() => {
      this.timer.clear();
      const now = this.current();
      this.pty.resize(now.cols, now.rows);
    }, JIGGLE_RESTORE_MS);
  }
}
