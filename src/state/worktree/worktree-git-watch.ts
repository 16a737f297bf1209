/**
 * Watches what a worktree's counts read of git's own files, which no watch
 * of the worktree sees: its HEAD and index (in its gitdir, under the main
 * repository's `.git/worktrees/<name>/`), the refs HEAD and the base name
 * (loose files under the common `.git/refs/`), `packed-refs`, and a reftable
 * if the repository has one. A commit, a merge into the base, a rebase, a
 * checkout, `git update-ref` or a reset from anywhere each write one of
 * these. One non-recursive inotify watch per folder, each filtered by the
 * names that matter, so the rest of `.git`'s traffic costs a callback and
 * nothing more.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Disposable } from '../../core/lifetime.js';
import { git } from './git.js';

export interface GitPlaces {
  /** The worktree's own git folder (HEAD, index). */
  gitDir: string;
  /** The repository's common git folder (refs, packed-refs). */
  commonDir: string;
  /** The base's full ref name (`refs/heads/main`), or null when it names a commit. */
  baseRef: string | null;
}

/** Where the worktree's git files are, or null when git cannot say (then nothing is watched and the counts say why). */
export async function gitPlaces(worktree: string, base: string): Promise<GitPlaces | null> {
  const dirs = await git(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'], { cwd: worktree }).catch(() => null); // no git: the counts say so
  if (!dirs || dirs.code !== 0) return null;
  const [gitDir, commonDir] = dirs.stdout.trim().split('\n');
  if (!gitDir || !commonDir) return null;
  const ref = await git(['rev-parse', '--symbolic-full-name', base], { cwd: worktree }).catch(() => null); // as above
  const baseRef = ref?.code === 0 && ref.stdout.trim().startsWith('refs/') ? ref.stdout.trim() : null;
  return { gitDir, commonDir, baseRef };
}

/** The ref HEAD names (`refs/heads/agent/api`), or null when it is detached or cannot be read. */
export function headRef(gitDir: string): string | null {
  try {
    const m = /^ref: (refs\/\S+)/.exec(fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8'));
    return m ? m[1]! : null;
  } catch {
    return null; // no HEAD file: git will say what is wrong when it counts
  }
}

export interface GitWatch extends Disposable {
  /** HEAD may name another branch now (a checkout), or a ref's folder may have come or gone: watch where they are now. */
  aim(): void;
  /** Whether every place is watched. */
  readonly complete: boolean;
}

/**
 * Tells `onChange` when HEAD, the index, the branch HEAD is on, the base's ref
 * or the packed refs change. `aim()` after each count that read them again.
 */
export function watchGitState(places: GitPlaces, onChange: () => void, onError: (what: string, err: Error) => void): GitWatch {
  /** Folder -> the names in it that matter (null: any). */
  const watchers = new Map<string, { w: fs.FSWatcher; names: Set<string> | null }>();
  let complete = true;
  let disposed = false;
  const wanted = (): Map<string, Set<string> | null> => {
    const want = new Map<string, Set<string> | null>();
    const name = (dir: string, n: string | null) => {
      const had = want.get(dir);
      if (had === null) return;
      if (n === null) want.set(dir, null);
      else want.set(dir, new Set([...(had ?? []), n]));
    };
    name(places.gitDir, 'HEAD');
    name(places.gitDir, 'index');
    name(places.commonDir, 'packed-refs');
    if (fs.existsSync(path.join(places.commonDir, 'reftable'))) name(path.join(places.commonDir, 'reftable'), null);
    for (const ref of [headRef(places.gitDir), places.baseRef]) {
      if (!ref) continue;
      // The deepest folder of the ref's path that exists, watched for the next name down: a packed ref's folders may be gone.
      const parts = ref.split('/');
      let i = parts.length - 1;
      while (i > 0 && !isDir(path.join(places.commonDir, ...parts.slice(0, i)))) i--;
      if (i > 0) name(path.join(places.commonDir, ...parts.slice(0, i)), parts[i]!);
    }
    return want;
  };
  const aim = (): void => {
    if (disposed) return;
    const want = wanted();
    for (const [dir, held] of watchers) {
      if (!want.has(dir)) {
        held.w.close();
        watchers.delete(dir);
      }
    }
    complete = true;
    for (const [dir, names] of want) {
      const held = watchers.get(dir);
      if (held) {
        held.names = names;
        continue;
      }
      try {
        const entry = { w: null as unknown as fs.FSWatcher, names };
        entry.w = fs.watch(dir, { persistent: false }, (_event, n) => {
          if (n === null || entry.names === null || entry.names.has(String(n))) onChange();
        });
        entry.w.on('error', (err) => {
          entry.w.close();
          if (watchers.get(dir) === entry) watchers.delete(dir);
          complete = false;
          onError(dir, err);
          onChange();
        });
        watchers.set(dir, entry);
      } catch (err) {
        complete = false;
        onError(dir, err as Error);
      }
    }
  };
  aim();
  return {
    aim,
    get complete() {
      return complete;
    },
    dispose: () => {
      disposed = true;
      for (const held of watchers.values()) held.w.close();
      watchers.clear();
    },
  };
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false; // not there (yet): a folder higher up is watched instead
  }
}
