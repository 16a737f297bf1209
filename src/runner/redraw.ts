import { kindNamed } from '../state/kind-files.js';
import { MIN_COLS } from '../core/protocol/protocol.js';
import type { PtyHost } from './pty-host.js';

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
export class Redraw {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pty: PtyHost,
    private readonly current: () => { agent: string; cols: number; rows: number },
  ) {}

  jiggle(): void {
    const { agent, cols, rows } = this.current();
    if (kindNamed(agent).jiggle === 'winch') {
      const pgrp = this.pty.foregroundGroup();
      if (pgrp) {
        try {
          process.kill(-pgrp, 'SIGWINCH');
        } catch {
          // the group just went away
        }
      }
      return;
    }
    if (this.timer) return; // one in flight already does the job
    this.pty.resize(Math.max(MIN_COLS, cols - 1), rows);
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = this.current();
      this.pty.resize(now.cols, now.rows);
    }, JIGGLE_RESTORE_MS);
  }
}
