import fs from 'node:fs';
import path from 'node:path';
import type { Disposable } from '../../core/lifetime.js';

/** Folders watched at most per worktree; past it, the turn-end counts still keep the numbers fresh. */
export const MAX_WATCHED_DIRS = 2000;

/** Never watched: git's own (a worktree's `.git` is a file, but a nested repository's is not) and installed packages. */
const SKIPPED = new Set(['.git', 'node_modules']);

export interface WatchOptions {
  /** Folders (relative, `a/b`) git ignores as a whole: changes there change no count. */
  ignoredDirs?: ReadonlySet<string>;
  maxDirs?: number;
  /** A watcher failed (the folder was deleted, say): once per folder. */
  onError?: (dir: string, err: Error) => void;
}

export interface WorktreeWatch extends Disposable {
  /** Whether every folder is watched (false past maxDirs, or when a watch could not be set). */
  readonly complete: boolean;
}

/**
 * Tells `onChange` which path changed (relative to `root`, `/`-separated;
 * a folder's path stands for all inside it; null: something, it cannot tell
 * what) whenever anything in the worktree changes: one non-recursive
 * fs.watch (inotify) per folder, new folders added as they appear, git's
 * internals and ignored folders left out. Cheap at rest: the kernel does the
 * watching, and nothing runs until a file changes.
 */
export function watchWorktree(root: string, onChange: (changed: string | null) => void, o: WatchOptions = {}): WorktreeWatch {
  const watched = new Map<string, fs.FSWatcher>();
  const max = o.maxDirs ?? MAX_WATCHED_DIRS;
  let complete = true;
  let disposed = false;
  const skip = (rel: string): boolean => SKIPPED.has(path.basename(rel)) || (o.ignoredDirs?.has(rel) ?? false);
  /** Stops watching `rel` and everything under it. */
  const forget = (rel: string): void => {
    for (const [dir, w] of watched) {
      if (dir === rel || (rel === '' ? true : dir.startsWith(`${rel}/`))) {
        w.close();
        watched.delete(dir);
      }
    }
  };
  const add = (rel: string): void => {
    if (disposed || watched.has(rel)) return;
    if (watched.size >= max) {
      complete = false;
      return;
    }
    const abs = path.join(root, rel);
    let w: fs.FSWatcher;
    try {
      w = fs.watch(abs, { persistent: false }, (event, name) => {
        if (name === null) {
          onChange(rel || null); // the kernel did not say what: the whole folder
          return;
        }
        const child = rel ? `${rel}/${String(name)}` : String(name);
        if (SKIPPED.has(String(name))) return;
        // A folder deleted by hand reports itself by name to its own watch: its parent's watch says it properly.
        if (watched.get(rel) === w && !isDir(abs)) {
          forget(rel);
          onChange(rel || null);
          return;
        }
        onChange(child);
        // A folder that appeared is watched too (a rename event names it). One that went, or went and
        // came back (its inode may be the old one's), is watched afresh: the old folder's watch is dead.
        if (event === 'rename') forget(child);
        if (!watched.has(child) && !skip(child) && isDir(path.join(root, child))) walk(child);
      });
    } catch (err) {
      complete = false;
      o.onError?.(rel, err as Error);
      return;
    }
    w.on('error', (err) => {
      // The folder went away (deleted by hand): stop watching it; the next count says what is left.
      forget(rel);
      o.onError?.(rel, err);
      onChange(rel || null);
    });
    watched.set(rel, w);
  };
  const walk = (rel: string): void => {
    add(rel);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return; // gone meanwhile: its parent's watch says so
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue; // symlinks to folders are not followed
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (!skip(child)) walk(child);
    }
  };
  walk('');
  return {
    get complete() {
      return complete;
    },
    dispose: () => {
      disposed = true;
      for (const w of watched.values()) w.close();
      watched.clear();
    },
  };
}

function isDir(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false; // gone already: nothing to watch
  }
}
