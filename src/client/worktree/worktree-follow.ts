/**
 * The board's counts of worktree sessions no runner keeps fresh (exited,
 * lost): while the board lists one, a WorktreeKeeper follows its worktree
 * (the same watches and counts its runner had), and the row shows what it
 * counts. In memory only, never host.json: a session's runner is the one
 * writer of its counts, so two boards, or a board and `ls`, never fight.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import type { WorktreeStats } from '../../core/worktree/worktree.js';
import type { SessionView } from '../../state/host-store.js';
import { sessionDir } from '../../state/paths.js';
import { WorktreeKeeper } from '../../state/worktree/worktree-keeper.js';
import { countedByReaders } from './worktree-counts.js';

export interface FollowDeps {
  /** The home: a count keeps its copy of the index in the session's folder. */
  home: string;
  clock: Clock;
  scheduler: Scheduler;
  /** A session's counts changed: its view is to be made again. */
  changed(id: string): void;
  /** A watch that failed: one line for the board log. */
  log(line: string): void;
}

interface Followed {
  keeper: WorktreeKeeper;
  path: string;
  stats?: WorktreeStats;
}

export class WorktreeFollow implements Disposable {
  private readonly followed = new Map<string, Followed>();
  private disposed = false;

  constructor(private readonly d: FollowDeps) {}

  /** The view as the board shows it: the session followed (or no longer) as its status says, with the counts followed. */
  view(id: string, view: SessionView): SessionView {
    if (this.disposed || !countedByReaders(view)) {
      this.stop(id);
      return view;
    }
    const info = view.worktree!;
    let f = this.followed.get(id);
    if (f?.path !== info.path) {
      this.stop(id);
      const entry: Followed = {
        path: info.path,
        keeper: new WorktreeKeeper({
          info,
          write: (stats) => {
            if (this.followed.get(id) !== entry) return;
            entry.stats = stats;
            this.d.changed(id);
          },
          log: (line) => this.d.log(`${id}: ${line}`),
          clock: this.d.clock,
          scheduler: this.d.scheduler,
          place: sessionDir(this.d.home, id),
        }),
      };
      this.followed.set(id, entry);
      f = entry;
    }
    return f.stats ? { ...view, worktreeStats: f.stats } : view;
  }

  /** No longer shown, or a runner keeps it again. */
  stop(id: string): void {
    this.followed.get(id)?.keeper.dispose();
    this.followed.delete(id);
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.followed.keys()]) this.stop(id);
  }
}
