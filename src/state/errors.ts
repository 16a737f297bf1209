/**
 * An error meant for the user: one line that says what happened and what to
 * do, and the exit code that says it too (see docs/cli.md).
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  unknownSession: 3,
  ambiguousSession: 4,
  sessionUnavailable: 5,
  unsafeHome: 6,
  runnerDied: 7,
  /** send: the prompt may or may not have been typed (accepted_unknown), or was not confirmed in time. Never retried blind. */
  unconfirmed: 8,
  /** --worktree (or diff, merge, pr) outside a git repository. */
  notARepo: 9,
  /** new --worktree: the branch exists already (reuse it with --reuse-branch). */
  branchExists: 10,
  /** git is not installed (or not on PATH). */
  gitMissing: 11,
  /** merge refused: uncommitted work in the worktree, or the main checkout not clean or not on the target branch. Nothing was changed. */
  workAtRisk: 12,
  /** merge stopped on a conflict; the repository is as git left it. */
  mergeConflict: 13,
  /** pr: the GitHub CLI (gh) is not installed. */
  ghMissing: 14,
  /** A file could not be written: the disk is full, a quota is used up, the file system is read-only, or no permission (src/state/write-errors.ts). */
  cannotWrite: 15,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class UserError extends Error {
  constructor(message: string, readonly exitCode: ExitCode = EXIT.failure) {
    super(message);
    this.name = 'UserError';
  }
}
