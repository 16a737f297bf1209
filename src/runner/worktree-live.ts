/** A worktree session's counts, kept fresh by its runner: at start, at each turn's end, after changes in the worktree. */
import type { Clock, Scheduler } from '../core/clock.js';
import type { Disposable } from '../core/lifetime.js';
import type { WorktreeInfo, WorktreeStats } from '../core/worktree/worktree.js';
import { git } from '../state/git.js';
import { worktreeStats } from '../state/worktree-stats.js';
import { WorktreeRefresher } from './worktree-refresh.js';
import { watchWorktree } from './worktree-watch.js';

export interface LiveStatsDeps {
  info: WorktreeInfo;
  /** The activity tracker's onChange: a turn's end (idle or waiting) counts again. */
  onActivity(fn: (activity: string) => void): Disposable;
  write(stats: WorktreeStats): void;
  log(line: string): void;
  clock: Clock;
  scheduler: Scheduler;
}

/** Folders git ignores as a whole (`node_modules/`, `dist/`): not watched. */
async function ignoredDirs(dir: string): Promise<Set<string>> {
  const r = await git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: dir }).catch(() => null); // no git: as if it ignored nothing
  if (!r || r.code !== 0) return new Set(); // watch everything: costlier, still right
  return new Set(r.stdout.split('\0').filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1)));
}

/**
 * A worktree session's counts, kept fresh by its runner for the session's
 * life (docs/worktrees.md, "What a session shows"): counted at start, at
 * each turn's end, and after changes in the worktree (debounced, at most
 * every few seconds); written to host.json. Dispose when the session ends.
 */
export function keepWorktreeStatsFresh(d: LiveStatsDeps): Disposable {
  const refresher = new WorktreeRefresher({ compute: () => worktreeStats(d.info, d.clock), write: d.write, clock: d.clock, scheduler: d.scheduler });
  let watcher: Disposable | null = null;
  let disposed = false;
  const turnEnds = d.onActivity((a) => {
    if (a === 'idle' || a === 'waiting') refresher.now();
  });
  refresher.now();
  void ignoredDirs(d.info.path).then((ignored) => {
    if (disposed) return;
    watcher = watchWorktree(d.info.path, () => refresher.changed(), {
      ignoredDirs: ignored,
      onError: (dir, err) => d.log(`worktree watch of ${dir || '.'} stopped: ${err.message}`),
    });
  });
  return {
    dispose: () => {
      disposed = true;
      turnEnds.dispose();
      watcher?.dispose();
      refresher.dispose();
    },
  };
}
