/**
 * An error meant for the user: one line that says what happened and what to
 * do, and the exit code that says it too: one code for each kind of mistake,
 * the same in every command (docs/cli.md, "Exit codes", whose table a test
 * holds to this one).
 */
export const EXIT = {
  ok: 0,
  /** Failed in a way no other code names (rm of a running session without --force, git refusing, a lock held too long). */
  failure: 1,
  /** An unknown command or option, a bad argument, options that do not go together, no terminal for a command that needs one. */
  usage: 2,
  unknownSession: 3,
  ambiguousSession: 4,
  /** The session cannot do it now: lost or exited where a running one is needed, its runner does not answer, its folder is gone. */
  sessionUnavailable: 5,
  unsafeHome: 6,
  runnerDied: 7,
  /** send: the prompt may or may not have been typed (accepted_unknown), or was not confirmed in time. Never retried blind. */
  unconfirmed: 8,
  /** No git worktree or repository to work on: a worktree command on a session without one (or whose worktree or repository is gone), --worktree outside a repository. */
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
  /** send: a budget the session is under is spent, so new prompts are held (raise it, or send --over-budget). Nothing was typed. */
  overBudget: 16,
  /** A session asked to be sandboxed cannot be here (no bubblewrap, user namespaces refused, no podman or docker): it was not started. */
  cannotSandbox: 17,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class UserError extends Error {
  constructor(message: string, readonly exitCode: ExitCode = EXIT.failure) {
    super(message);
    this.name = 'UserError';
  }
}
