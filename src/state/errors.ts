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
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class UserError extends Error {
  constructor(message: string, readonly exitCode: ExitCode = EXIT.failure) {
    super(message);
    this.name = 'UserError';
  }
}
