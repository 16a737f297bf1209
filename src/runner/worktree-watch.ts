import fs from 'node:fs';
import path from 'node:path';
import type { Disposable } from '../core/lifetime.js';

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

/**
 * Tells `onChange` (no detail) when anything in the worktree changes: one
 * non-recursive fs.watch (inotify) per folder, new folders added as they
 * appear, git's internals and ignored folders left out. Cheap at rest: the
 * kernel does the watching, and nothing runs until a file changes.
 */
export function watchWorktree(root: string, onChange: () => void, o: WatchOptions = {}): Disposable {
  const watchers = new Map<string, fs.FSWatcher>();
  const max = o.maxDirs ?? MAX_WATCHED_DIRS;
  let disposed = false;
  const skip = (rel: string): boolean => SKIPPED.has(path.basename(rel)) || (o.ignoredDirs?.has(rel) ?? false);
  const add = (rel: string): void => {
    if (disposed || watchers.has(rel) || watchers.size >= max) return;
    const abs = path.join(root, rel);
    let w: fs.FSWatcher;
    try {
      w = fs.watch(abs, { persistent: false }, (_event, name) => {
        if (name && SKIPPED.has(String(name))) return;
        onChange();
        // A folder that appeared is watched too (a rename event names it).
        if (name) {
          const child = rel ? path.join(rel, String(name)) : String(name);
          if (!watchers.has(child) && !skip(child) && isDir(path.join(root, child))) walk(child);
        }
      });
    } catch (err) {
      o.onError?.(rel, err as Error);
      return;
    }
    w.on('error', (err) => {
      // The folder went away (deleted by hand): stop watching it; the next count says `missing`.
      watchers.get(rel)?.close();
      watchers.delete(rel);
      o.onError?.(rel, err);
      onChange();
    });
    watchers.set(rel, w);
  };
  const walk = (rel: string): void => {
    add(rel);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return; // gone meanwhile: its watcher's error says so
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue; // symlinks to folders are not followed
      const child = rel ? path.join(rel, e.name) : e.name;
      if (!skip(child)) walk(child);
    }
  };
  walk('');
  return {
    dispose: () => {
      disposed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
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
