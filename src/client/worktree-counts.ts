/**
 * The counts of worktree sessions no runner keeps fresh (exited, lost),
 * counted when they are read: the runner that wrote host.json's are gone,
 * and the worktree may have changed since (a commit, a merge, an edit by
 * hand). Nothing is written: the runner is the one writer of a session's
 * counts, so two readers never fight over host.json.
 */
import type { Clock } from '../core/clock.js';
import type { SessionView } from '../state/host-store.js';
import { worktreeStats } from '../state/worktree-count.js';

/** Whether a session's counts are nobody's to keep fresh: a worktree, and its runner done (the program exited) or gone. */
export const countedByReaders = (s: SessionView): boolean => s.worktree !== undefined && (s.status === 'exited' || s.status === 'lost');

/** `sessions` with the counts of those no runner keeps fresh counted now (all at once: each is a few git runs). */
export async function withFreshCounts(sessions: SessionView[], clock: Clock): Promise<SessionView[]> {
  return Promise.all(sessions.map(async (s) => (countedByReaders(s) ? { ...s, worktreeStats: await worktreeStats(s.worktree!, clock) } : s)));
}
