/**
 * A worktree's counts kept true as it changes (docs/worktrees.md, "What a
 * session shows"): the worktree's files and git's own (HEAD, the index, the
 * branch's and the base's refs) watched, and a count after each change, of
 * the changed paths alone when only files changed. The runner keeps its
 * session's this way; the board keeps those of sessions whose runner is gone.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import type { WorktreeInfo, WorktreeStats } from '../../core/worktree/worktree.js';
import { git } from './git.js';
import { MAX_PATHS_PER_COUNT, WorktreeCounter } from './worktree-count.js';
import { gitPlaces, watchGitState, type GitWatch } from './worktree-git-watch.js';
import { WorktreeRefresher } from './worktree-refresh.js';
import { watchWorktree, type WorktreeWatch } from './worktree-watch.js';

export interface KeeperDeps {
  info: WorktreeInfo;
  /** Each count that differs from the last (its time aside). */
  write(stats: WorktreeStats): void;
  /** A watch that failed: one line for a log. */
  log(line: string): void;
  clock: Clock;
  scheduler: Scheduler;
  /** The session's folder: where a count's copy of the index is kept (src/state/worktree/worktree-index.ts). */
  place?: string;
}

/** Folders git ignores as a whole (`node_modules/`, `dist/`): not watched. */
async function ignoredDirs(dir: string): Promise<Set<string>> {
  const r = await git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: dir }).catch(() => null); // no git: as if it ignored nothing
  if (!r || r.code !== 0) return new Set(); // watch everything: costlier, still right
  return new Set(r.stdout.split('\0').filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1)));
}

export class WorktreeKeeper implements Disposable {
  private readonly counter: WorktreeCounter;
  private readonly refresher: WorktreeRefresher;
  private files: WorktreeWatch | null = null;
  private gitState: GitWatch | null = null;
  /** Paths changed since the last count began. */
  private readonly dirty = new Set<string>();
  /** Something changed that only a whole count sees (git's files, a folder the kernel did not name). */
  private whole = true;
  private disposed = false;

  constructor(private readonly d: KeeperDeps) {
    this.counter = new WorktreeCounter(d.info, d.clock, d.place);
    this.refresher = new WorktreeRefresher({ compute: () => this.count(), write: d.write, clock: d.clock, scheduler: d.scheduler });
    // The first count once the watches are up, so that nothing between the two is missed.
    void this.watch()
      .catch((err: unknown) => d.log(`worktree watch could not start: ${(err as Error).message}`))
      .finally(() => this.refresher.now());
  }

  /** Counts taken, and the git runs they took (for the tests and the bench). */
  get runs(): { counts: number; git: number } {
    return { counts: this.refresher.runs, git: this.counter.gitRuns };
  }

  /** Count everything again soon (a turn ended): what no watch sees (past the folder limit, a tracked file in node_modules) shows then. */
  recount(): void {
    this.whole = true;
    this.refresher.now();
  }

  dispose(): void {
    this.disposed = true;
    this.refresher.dispose();
    this.counter.dispose();
    this.files?.dispose();
    this.gitState?.dispose();
  }

  private async watch(): Promise<void> {
    const w = this.d.info;
    const [ignored, places] = await Promise.all([ignoredDirs(w.path), gitPlaces(w.path, w.base)]);
    if (this.disposed) return;
    const stopped = (what: string) => (dir: string, err: Error) => this.d.log(`worktree watch of ${what}${dir || '.'} stopped: ${err.message}`);
    this.files = watchWorktree(w.path, (p) => this.pathChanged(p), { ignoredDirs: ignored, onError: stopped('') });
    // Without them every count is a whole one (count()).
    if (places) this.gitState = watchGitState(places, () => this.gitChanged(), stopped('git files '));
  }

  private pathChanged(p: string | null): void {
    if (p === null || this.dirty.size >= MAX_PATHS_PER_COUNT) {
      this.whole = true;
      this.dirty.clear();
    } else if (!this.whole) {
      this.dirty.add(p);
    }
    this.refresher.changed();
  }

  private gitChanged(): void {
    this.whole = true;
    this.dirty.clear();
    this.refresher.changed();
  }

  private count(): Promise<WorktreeStats> {
    const whole = this.whole || !this.gitState?.complete;
    const paths = [...this.dirty];
    this.whole = false;
    this.dirty.clear();
    if (!whole) return this.counter.paths(paths);
    this.gitState?.aim(); // HEAD may name another branch now; a ref's folder may have come or gone
    return this.counter.full();
  }
}
