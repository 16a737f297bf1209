/**
 * What a worktree session's work amounts to against its base
 * (docs/worktrees.md, "What a session shows"), counted whole or, after a few
 * files changed, for those files alone.
 *
 * A whole count: `rev-parse` of HEAD and the base, and only when either moved
 * `merge-base` and `rev-list --left-right --count` (behind and ahead); then at
 * once `diff --numstat` from the merge base (committed and uncommitted changes
 * of tracked files) and `status --porcelain -uall` (uncommitted paths, and the
 * untracked files, whose lines count as added). Both of those look at every
 * file of the worktree. What they said is kept path by path, so a count after
 * a few files changed (and nothing in git's own files: HEAD, the index, the
 * refs) asks git about those paths alone, and a file already known to be
 * untracked has its lines read again without git at all.
 *
 * A worktree folder that is gone is `missing`; a git failure is one line in
 * `error`. Never throws.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { WorktreeInfo, WorktreeStats } from '../../core/worktree/worktree.js';
import type { Disposable } from '../../core/lifetime.js';
import { git, gitComplaint, type GitResult } from './git.js';
import { PrivateIndex } from './worktree-index.js';
import { countLines, numstatByPath, parseStatus } from './worktree-stats.js';

/** More changed paths than this in one count: the whole worktree is counted instead (a checkout, a generator). */
export const MAX_PATHS_PER_COUNT = 200;

class GitFailed extends Error {}

/** Where the commit counts stand: recomputed only when HEAD or the base moved. */
export interface Commits {
  head: string;
  base: string;
  mergeBase: string;
  ahead: number;
  behind: number;
}

const ZERO = { files: 0, added: 0, removed: 0, ahead: 0, behind: 0, uncommitted: 0 };

/** How a whole count asks for the status (a count of some paths adds them). */
export const STATUS = ['status', '--porcelain', '-z', '-uall', '--no-renames'];

/** HEAD's commit and the base's, or why git could not say. */
export type Revs = { head: string; base: string } | { error: string };

/** HEAD and the base (as named, so new commits on it show as behind; its recorded commit if it is gone). */
export async function revs(w: WorktreeInfo, git: (args: string[]) => Promise<GitResult>): Promise<Revs> {
  let r = await git(['rev-parse', 'HEAD', `${w.base}^{commit}`]);
  if (r.code !== 0) r = await git(['rev-parse', 'HEAD', `${w.baseCommit}^{commit}`]);
  if (r.code !== 0) return { error: gitComplaint(r) };
  const [head, base] = r.stdout.trim().split('\n');
  return head && base ? { head, base } : { error: `git rev-parse said nothing of HEAD and ${w.base}` };
}

/** Whether `p` is `dir` or inside it (paths relative to the worktree, `/`-separated). */
const within = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`);

export class WorktreeCounter implements Disposable {
  /** Tracked paths that differ from the merge base: lines added and removed. */
  private readonly numstat = new Map<string, { added: number; removed: number }>();
  /** Paths `git status` lists, with their two-letter state (`??`: untracked). */
  private readonly status = new Map<string, string>();
  /** Lines of each untracked file. */
  private readonly untrackedLines = new Map<string, number>();
  private commits: Commits | null = null;
  /** The maps hold a whole count (and nothing failed since). */
  private known = false;
  /** Our copy of the worktree's index (src/state/worktree/worktree-index.ts), and the environment that points git at it. */
  private readonly index: PrivateIndex;
  private env: NodeJS.ProcessEnv = {};
  /** git runs so far (for the tests and the bench). */
  gitRuns = 0;

  /** `place`: the session's folder, where the copy of the index is kept (else a temporary folder). */
  constructor(
    private readonly info: WorktreeInfo,
    private readonly clock: Clock,
    place?: string,
  ) {
    this.index = new PrivateIndex(info.path, place);
  }

  dispose(): void {
    this.index.dispose();
  }

  /** Where HEAD and the base were at the last whole count (null before one, or after a failure). */
  get commitsCounted(): Commits | null {
    return this.known ? this.commits : null;
  }

  /**
   * Counts the whole worktree. `given`: what the caller asked git already
   * (HEAD's and the base's commits, `status` as whole counts run it), and
   * the commit counts of a count before, used when HEAD and the base are
   * where they were then.
   */
  async full(given: { revs?: Revs; status?: string; commits?: Commits } = {}): Promise<WorktreeStats> {
    this.known = false;
    if (given.commits) this.commits = given.commits;
    return this.guarded(async () => {
      this.env = await this.index.env();
      // The status needs no commit: it runs beside the commits' runs and then the diff.
      const [status, numstat] = await Promise.all([
        given.status ?? this.run(STATUS),
        this.commitCounts(given.revs).then((c) => this.run(['diff', '--numstat', '-z', '--no-renames', c.mergeBase])),
      ]);
      this.numstat.clear();
      this.status.clear();
      this.untrackedLines.clear();
      this.take(numstat, status);
      this.known = true;
      return this.totals();
    });
  }

  /**
   * Counts again after only `changed` (paths relative to the worktree; a
   * folder stands for all inside it) changed since the last count, and none
   * of git's own files (HEAD, the index, the refs, `.git/info/exclude`):
   * the caller knows that, from its watches. Without a whole count to build on,
   * or with too many paths, it counts the whole worktree.
   */
  async paths(changed: Iterable<string>): Promise<WorktreeStats> {
    // A `.gitignore` rules its folder: that folder is counted again (the top one's rules all).
    const list = topmost([...changed].map((p) => (path.posix.basename(p) === '.gitignore' ? path.posix.dirname(p) : p)));
    // The index changed (something staged, committed or checked out, unseen): only a whole count sees what that did.
    if (!this.known || !this.commits || list.includes('.') || list.length > MAX_PATHS_PER_COUNT || this.index.stale) return this.full();
    return this.guarded(async () => {
      const viaGit: string[] = [];
      for (const p of list) if (!this.recountUntracked(p)) viaGit.push(p);
      if (viaGit.length === 0) return this.totals();
      const spec = ['--', ...viaGit];
      // --literal-pathspecs: a file named `*.ts` is that file, not a pattern.
      const [numstat, status] = await Promise.all([
        this.run(['--literal-pathspecs', 'diff', '--numstat', '-z', '--no-renames', this.commits!.mergeBase, ...spec]),
        this.run(['--literal-pathspecs', ...STATUS, ...spec]),
      ]);
      for (const map of [this.numstat, this.status, this.untrackedLines]) {
        for (const p of map.keys()) if (viaGit.some((d) => within(p, d))) map.delete(p);
      }
      this.take(numstat, status);
      return this.totals();
    });
  }

  /**
   * A file known to be untracked (and so neither ignored nor in the index,
   * which have not changed) has its lines read again, with no git: true when
   * that settled it.
   */
  private recountUntracked(p: string): boolean {
    if (this.status.get(p) !== '??') return false;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(this.info.path, p));
    } catch {
      this.status.delete(p); // deleted: an untracked file leaves no trace
      this.untrackedLines.delete(p);
      return true;
    }
    if (st.isDirectory()) return false; // a folder now: git lists what is in it
    this.untrackedLines.set(p, countLines(path.join(this.info.path, p)));
    return true;
  }

  private take(numstat: string, status: string): void {
    for (const [p, n] of numstatByPath(numstat)) this.numstat.set(p, n);
    for (const e of parseStatus(status)) {
      this.status.set(e.path, e.xy);
      if (e.xy === '??') this.untrackedLines.set(e.path, countLines(path.join(this.info.path, e.path)));
    }
  }

  private totals(): WorktreeStats {
    const c = this.commits!;
    let added = 0;
    let removed = 0;
    for (const n of this.numstat.values()) {
      added += n.added;
      removed += n.removed;
    }
    for (const n of this.untrackedLines.values()) added += n;
    return {
      files: this.numstat.size + this.untrackedLines.size,
      added,
      removed,
      ahead: c.ahead,
      behind: c.behind,
      uncommitted: this.status.size,
      at: this.stamp(),
    };
  }

  private async commitCounts(given?: Revs): Promise<Commits> {
    const r = given ?? (await revs(this.info, (args) => this.git(args)));
    if ('error' in r) throw new GitFailed(r.error);
    const { head, base } = r;
    const last = this.commits;
    if (last && last.head === head && last.base === base) return last;
    const [mergeBase, counts] = await Promise.all([this.run(['merge-base', base, head]), this.run(['rev-list', '--left-right', '--count', `${base}...${head}`])]);
    const [behind, ahead] = counts.trim().split(/\s+/).map(Number);
    this.commits = { head, base, mergeBase: mergeBase.trim(), ahead: ahead ?? 0, behind: behind ?? 0 };
    return this.commits;
  }

  private async guarded(count: () => Promise<WorktreeStats>): Promise<WorktreeStats> {
    if (!fs.existsSync(this.info.path)) return this.failed({ missing: true });
    try {
      return await count();
    } catch (err) {
      if (!fs.existsSync(this.info.path)) return this.failed({ missing: true });
      const why = err instanceof GitFailed ? err.message : (err as Error).message;
      return this.failed({ error: why.split('\n')[0]! });
    }
  }

  /** Nothing is known after a failure: the next count is a whole one. */
  private failed(what: { missing: true } | { error: string }): WorktreeStats {
    this.known = false;
    this.commits = null;
    return { ...ZERO, at: this.stamp(), ...what };
  }

  private stamp(): string {
    return new Date(this.clock.now()).toISOString();
  }

  private git(args: string[]) {
    this.gitRuns++;
    return git(args, { cwd: this.info.path, env: this.env });
  }

  private async run(args: string[]): Promise<string> {
    const r = await this.git(args);
    if (r.code !== 0) throw new GitFailed(gitComplaint(r));
    return r.stdout;
  }
}

/** The paths with none inside another (`a` covers `a/b`), each once. */
function topmost(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort();
  const out: string[] = [];
  for (const p of sorted) if (!out.some((d) => within(p, d))) out.push(p);
  return out;
}

/** A one-off whole count. */
export async function worktreeStats(w: WorktreeInfo, clock: Clock): Promise<WorktreeStats> {
  const counter = new WorktreeCounter(w, clock);
  try {
    return await counter.full();
  } finally {
    counter.dispose();
  }
}
