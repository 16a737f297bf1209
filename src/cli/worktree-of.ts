/** The worktree of a session, for the commands that work on one (merge, pr). */
import type { WorktreeInfo } from '../core/worktree/worktree.js';
import { EXIT, UserError } from '../state/errors.js';
import type { SessionView } from '../state/host-store.js';

/** The session's worktree, or a usage error for a session that has none. */
export function worktreeOf(s: SessionView, command: string): WorktreeInfo {
  if (!s.worktree) throw new UserError(`${s.name} has no worktree of its own (start one with new --worktree); ${command} is for worktree sessions`, EXIT.usage);
  return s.worktree;
}
