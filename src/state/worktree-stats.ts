/**
 * What a worktree session's work amounts to against its base, in four git
 * runs: the merge base, then at once `diff --numstat` from it (committed and
 * uncommitted changes of tracked files), `rev-list --left-right --count`
 * (behind and ahead) and `status --porcelain -uall` (uncommitted paths, and
 * the untracked files, whose lines count as added). A worktree folder that
 * is gone is `missing`; a git failure is one line in `error`. Never throws.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import type { WorktreeInfo, WorktreeStats } from '../core/worktree/worktree.js';
import { git, gitComplaint, type GitResult } from './git.js';

/** Untracked files bigger than this are counted as files, their lines not read. */
const MAX_COUNTED_BYTES = 1024 * 1024;

class GitFailed extends Error {}

async function run(args: string[], cwd: string): Promise<string> {
  const r: GitResult = await git(args, { cwd });
  if (r.code !== 0) throw new GitFailed(gitComplaint(r));
  return r.stdout;
}

/** Lines of a new file as git would count them added: newline-terminated lines, plus a last unterminated one; binary counts 0. */
export function countLines(file: string): number {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return 0; // gone between status and here: nothing to count
  }
  if (!st.isFile() || st.size === 0 || st.size > MAX_COUNTED_BYTES) return 0;
  const buf = fs.readFileSync(file);
  if (buf.includes(0)) return 0;
  let n = 0;
  for (const b of buf) if (b === 10) n++;
  return buf[buf.length - 1] === 10 ? n : n + 1;
}

/** `git status --porcelain -z` entries: [XY, path]; a rename's or copy's original path is skipped. */
export function parseStatus(z: string): Array<{ xy: string; path: string }> {
  const parts = z.split('\0');
  const out: Array<{ xy: string; path: string }> = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const xy = p.slice(0, 2);
    out.push({ xy, path: p.slice(3) });
    if (xy[0] === 'R' || xy[0] === 'C') i++;
  }
  return out;
}

/** `git diff --numstat -z`: files, lines added and removed (a binary file counts as a file, no lines). */
export function parseNumstat(z: string): { files: number; added: number; removed: number } {
  const parts = z.split('\0');
  let files = 0, added = 0, removed = 0;
  for (let i = 0; i < parts.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i]!);
    if (!m) continue;
    files++;
    if (m[1] !== '-') added += Number(m[1]);
    if (m[2] !== '-') removed += Number(m[2]);
    if (m[3] === '') i += 2; // a rename: the old and new paths follow as two fields
  }
  return { files, added, removed };
}

export async function worktreeStats(w: WorktreeInfo, clock: Clock): Promise<WorktreeStats> {
  const now = () => new Date(clock.now());
  const zero = { files: 0, added: 0, removed: 0, ahead: 0, behind: 0, uncommitted: 0 };
  if (!fs.existsSync(w.path)) return { ...zero, at: now().toISOString(), missing: true };
  try {
    // The base as named, so new commits on it show as behind; its recorded commit if it is gone.
    const base = (await git(['rev-parse', '--verify', '--quiet', `${w.base}^{commit}`], { cwd: w.path })).code === 0 ? w.base : w.baseCommit;
    const mergeBase = (await run(['merge-base', base, 'HEAD'], w.path)).trim();
    const [numstat, counts, status] = await Promise.all([
      run(['diff', '--numstat', '-z', '--no-renames', mergeBase], w.path),
      run(['rev-list', '--left-right', '--count', `${base}...HEAD`], w.path),
      run(['status', '--porcelain', '-z', '-uall'], w.path),
    ]);
    const tracked = parseNumstat(numstat);
    const entries = parseStatus(status);
    const untracked = entries.filter((e) => e.xy === '??');
    const added = untracked.reduce((n, e) => n + countLines(path.join(w.path, e.path)), 0);
    const [behind, ahead] = counts.trim().split(/\s+/).map(Number);
    return {
      files: tracked.files + untracked.length,
      added: tracked.added + added,
      removed: tracked.removed,
      ahead: ahead ?? 0,
      behind: behind ?? 0,
      uncommitted: entries.length,
      at: now().toISOString(),
    };
  } catch (err) {
    if (!fs.existsSync(w.path)) return { ...zero, at: now().toISOString(), missing: true };
    const why = err instanceof GitFailed ? err.message : (err as Error).message;
    return { ...zero, at: now().toISOString(), error: why.split('\n')[0]! };
  }
}
