/** A worktree session's counts, kept fresh by its runner while the runner lives (docs/worktrees.md, "What a session shows"). */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import type { WorktreeInfo, WorktreeStats } from '../../core/worktree/worktree.js';
import { WorktreeKeeper } from '../../state/worktree/worktree-keeper.js';

export interface LiveStatsDeps {
  info: WorktreeInfo;
  /** The activity tracker's onChange: a turn's end (idle or waiting) counts everything again. */
  onActivity(fn: (activity: string) => void): Disposable;
  write(stats: WorktreeStats): void;
  log(line: string): void;
  clock: Clock;
  scheduler: Scheduler;
  /** The session's folder (src/state/worktree/worktree-index.ts keeps a copy of the index there). */
  place: string;
}

/**
 * Counts at start, after every change to the worktree's files or to git's
 * own (src/state/worktree/worktree-keeper.ts), and everything again at each turn's
 * end; written to host.json. The runner is the one writer of a session's
 * counts: once it is gone, whoever shows the session counts for itself.
 * Dispose when the session ends.
 */
export function keepWorktreeStatsFresh(d: LiveStatsDeps): Disposable {
  const keeper = new WorktreeKeeper({ info: d.info, write: d.write, log: d.log, clock: d.clock, scheduler: d.scheduler, place: d.place });
  const turnEnds = d.onActivity((a) => {
    if (a === 'idle' || a === 'waiting') keeper.recount();
  });
  return {
    dispose: () => {
      turnEnds.dispose();
      keeper.dispose();
    },
  };
}
