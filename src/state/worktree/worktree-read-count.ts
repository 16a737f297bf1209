/**
 * A worktree counted when it is read (`ls` of a session whose runner is
 * gone), as cheaply as the truth allows: `rev-parse` of HEAD and the base and
 * `status`, at once, and when HEAD, the base and the status are what they
 * were at the last such count, and so are the files the status lists (their
 * size, times and inode), the counts are that count's. Then nothing that
 * count read can have changed: a file the status does not list is the same
 * as in HEAD, and HEAD and the merge base are where they were. Else a whole
 * count, its `rev-parse` and `status` taken from here, and the record of it
 * kept in the session's folder (`worktree-count.json`) for the next reader.
 * That file is a cache: any reader may replace it, each copy is whole, and
 * one that does not match is counted afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { WorktreeInfo, WorktreeStats } from '../../core/worktree/worktree.js';
import { git } from './git.js';
import { revs, STATUS, WorktreeCounter, type Commits } from './worktree-count.js';
import { parseStatus } from './worktree-stats.js';

/** A status longer than this (thousands of untracked files) is not kept: the next read counts again. */
const MAX_KEPT_STATUS = 256 * 1024;

interface Kept {
  v: 1;
  commits: Commits;
  status: string;
  /** Each listed path's size, times and inode when it was counted. */
  stamps: Record<string, string>;
  stats: WorktreeStats;
}

function stampOf(file: string): string {
  try {
    const st = fs.lstatSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return 'gone';
  }
}

function readKept(file: string): Kept | null {
  try {
    const k = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Kept> | null;
    return k?.v === 1 && k.commits && typeof k.status === 'string' && k.stamps && k.stats ? (k as Kept) : null;
  } catch {
    return null; // none yet, or half of one: counted afresh
  }
}

function keep(file: string, kept: Kept): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // A cache: the session's folder gone (rm meanwhile) or a full disk only costs the next read a whole count.
    fs.rmSync(tmp, { force: true });
  }
}

/** The worktree's counts now; `keptFile` holds the last such count's record. Never throws. */
export async function countWhenRead(w: WorktreeInfo, keptFile: string, clock: Clock): Promise<WorktreeStats> {
  const counter = new WorktreeCounter(w, clock, path.dirname(keptFile));
  try {
    return await count(w, keptFile, clock, counter);
  } finally {
    counter.dispose();
  }
}

async function count(w: WorktreeInfo, keptFile: string, clock: Clock, counter: WorktreeCounter): Promise<WorktreeStats> {
  if (!fs.existsSync(w.path)) return counter.full();
  const startedAt = clock.now();
  const run = (args: string[]) => git(args, { cwd: w.path });
  const [r, status] = await Promise.all([revs(w, run), run(STATUS)]).catch(() => [null, null] as const); // no git: the whole count says so
  if (!r || !status || 'error' in r || status.code !== 0) return counter.full();
  const listed = parseStatus(status.stdout).map((e) => e.path);
  const stamps = Object.fromEntries(listed.map((p) => [p, stampOf(path.join(w.path, p))]));
  const kept = readKept(keptFile);
  const same = kept !== null && kept.commits.head === r.head && kept.commits.base === r.base && kept.status === status.stdout;
  if (same && listed.every((p) => kept.stamps[p] === stamps[p])) return kept.stats;
  // The kept commit counts are used only if HEAD and the base are where they were then.
  const stats = await counter.full({ revs: r, status: status.stdout, ...(kept ? { commits: kept.commits } : {}) });
  const commits = counter.commitsCounted;
  // A listed file changed as it was counted (its times that recent) may be counted half: not kept.
  const settled = Object.values(stamps).every((s) => s === 'gone' || Math.max(Number(s.split(':')[2]), Number(s.split(':')[3])) < startedAt - 1000);
  if (commits && !stats.error && !stats.missing && settled && status.stdout.length <= MAX_KEPT_STATUS) {
    keep(keptFile, { v: 1, commits, status: status.stdout, stamps, stats });
  }
  return stats;
}
