/**
 * The counts of worktree sessions no runner keeps fresh (exited, lost),
 * counted when they are read: the runner that wrote host.json's are gone,
 * and the worktree may have changed since (a commit, a merge, an edit by
 * hand). host.json is not written: the runner is its counts' one writer,
 * so two readers never fight over it; what a reader counted is kept beside
 * it as a cache (src/state/worktree/worktree-read-count.ts).
 */
import type { Clock } from '../../core/clock.js';
import type { SessionView } from '../../state/host-store.js';
import { worktreeCountFile } from '../../state/paths.js';
import { countWhenRead } from '../../state/worktree/worktree-read-count.js';

/** Whether a session's counts are nobody's to keep fresh: a worktree, and its runner done (the program exited) or gone. */
export const countedByReaders = (s: SessionView): boolean => s.worktree !== undefined && (s.status === 'exited' || s.status === 'lost');

/** `sessions` (of `home`) with the counts of those no runner keeps fresh counted now (all at once: each is a few git runs). */
export async function withFreshCounts(home: string, sessions: SessionView[], clock: Clock): Promise<SessionView[]> {
  const count = (s: SessionView) => countWhenRead(s.worktree!, worktreeCountFile(home, s.id), clock);
  return Promise.all(sessions.map(async (s) => (countedByReaders(s) ? { ...s, worktreeStats: await count(s) } : s)));
}
