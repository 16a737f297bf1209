/** The worktree of a session, for the commands that work on one (merge, pr, diff, rm --discard). */
import type { WorktreeInfo } from '../core/worktree/worktree.js';
import { EXIT, UserError } from '../state/errors.js';
import type { SessionView } from '../state/host-store.js';

/** The session's worktree, or the error of a session that has none: the same line and code (9) for every command. */
export function worktreeOf(s: SessionView, command: string): WorktreeInfo {
  if (!s.worktree) throw new UserError(`${s.name} has no worktree of its own (start one with new --worktree); ${command} is for worktree sessions`, EXIT.notARepo);
  return s.worktree;
}
