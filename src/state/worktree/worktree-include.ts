/**
 * `.worktreeinclude` (gitignore syntax, at the repository root): the
 * untracked files a fresh checkout lacks but the project needs (`.env`,
 * local settings). They are copied from the main checkout into a new
 * worktree, modes kept. A symlink is copied as a link only when it points
 * inside the repository; nothing is ever read through one.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { git, gitComplaint } from './git.js';

export const INCLUDE_FILE = '.worktreeinclude';

export interface IncludeResult {
  /** Paths copied, relative to the repository root. */
  copied: string[];
  /** One line each: what was left out and why (a symlink out of the repository, an unreadable file). */
  skipped: string[];
}

/** The matcher of `.worktreeinclude`, or null when the repository has none. */
export function readInclude(repo: string): Ignore | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(repo, INCLUDE_FILE), 'utf8');
  } catch {
    return null; // no include file: nothing to copy
  }
  return ignore().add(text);
}

/** Untracked and ignored paths of the main checkout; wholly untracked folders come as `dir/`. */
async function untrackedPaths(repo: string): Promise<string[]> {
  const r = await git(['ls-files', '-z', '--others', '--directory'], { cwd: repo });
  if (r.code !== 0) throw new Error(`cannot list the untracked files: ${gitComplaint(r)}`);
  return r.stdout.split('\0').filter((p) => p !== '');
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Copy what `.worktreeinclude` names from `repo` to `dest` (a fresh worktree of it). */
export async function copyIncluded(repo: string, dest: string): Promise<IncludeResult> {
  const ig = readInclude(repo);
  const out: IncludeResult = { copied: [], skipped: [] };
  if (!ig) return out;
  const realRepo = fs.realpathSync(repo);
  const visit = (rel: string): void => {
    const src = path.join(repo, rel);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(src);
    } catch (err) {
      out.skipped.push(`${rel}: ${(err as Error).message}`);
      return;
    }
    if (st.isDirectory()) {
      if (path.basename(rel) === '.git') return;
      if (ig.ignores(rel + '/')) {
        copyTree(rel);
        return;
      }
      for (const name of fs.readdirSync(src)) visit(path.join(rel, name));
      return;
    }
    if (ig.ignores(rel)) copyEntry(rel, st);
  };
  const copyTree = (rel: string): void => {
    const st = fs.lstatSync(path.join(repo, rel));
    if (!st.isDirectory()) {
      copyEntry(rel, st);
      return;
    }
    fs.mkdirSync(path.join(dest, rel), { recursive: true, mode: st.mode & 0o7777 });
    for (const name of fs.readdirSync(path.join(repo, rel))) copyTree(path.join(rel, name));
  };
  const copyEntry = (rel: string, st: fs.Stats): void => {
    const src = path.join(repo, rel);
    const to = path.join(dest, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (st.isSymbolicLink()) {
      const target = fs.readlinkSync(src);
      let real: string;
      try {
        real = fs.realpathSync(src);
      } catch {
        out.skipped.push(`${rel}: a symlink to nothing (${target})`);
        return;
      }
      if (!inside(realRepo, real)) {
        out.skipped.push(`${rel}: a symlink out of the repository (${target}), not followed`);
        return;
      }
      fs.symlinkSync(target, to);
    } else if (st.isFile()) {
      fs.copyFileSync(src, to);
      fs.chmodSync(to, st.mode & 0o7777);
    } else {
      out.skipped.push(`${rel}: not a file`);
      return;
    }
    out.copied.push(rel);
  };
  for (const p of await untrackedPaths(repo)) {
    const rel = p.replace(/\/$/, '');
    if (rel === '' || rel === INCLUDE_FILE) continue;
    visit(rel);
  }
  return out;
}
