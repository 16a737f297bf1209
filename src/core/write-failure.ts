/**
 * A file that could not be written for want of room or of the right to write (a full disk, a
 * used-up quota, a read-only mount, a permission): the words a user reads for it, the same in
 * the CLI's one line, the runner's refusals and a session's state (`idle · disk full`).
 * By the error's code (ENOSPC...), so the runner can say it over its socket.
 */

/** The codes that mean "could not write this here", as opposed to a bug or a missing file. */
const CAUSES: Readonly<Record<string, { word: string; cause: string; fix: string }>> = {
  ENOSPC: { word: 'disk full', cause: 'the disk is full', fix: 'free some space' },
  EDQUOT: { word: 'quota full', cause: 'your disk quota is used up', fix: 'free some space' },
  EROFS: { word: 'read-only', cause: 'the file system is read-only', fix: 'make it writable' },
  EACCES: { word: 'unwritable', cause: 'permission denied', fix: 'make it writable for you' },
  EPERM: { word: 'unwritable', cause: 'the operation is not permitted', fix: 'make it writable for you' },
};

/** Whether `code` (an errno name) is one of the write failures this module speaks of. */
export function isWriteFailureCode(code: unknown): code is string {
  return typeof code === 'string' && Object.hasOwn(CAUSES, code);
}

/** A session's note for it, after its state: `disk full`, `read-only`; ten characters at most, so a board row's state column holds it. */
export function writeFailureWord(code: string): string {
  return CAUSES[code]?.word ?? 'unwritable';
}

/** `the disk is full (ENOSPC); free some space and run it again`: the cause and what to do. */
export function writeFailureAdvice(code: string, again = 'run it again'): string {
  const c = CAUSES[code];
  return c ? `${c.cause} (${code}); ${c.fix} and ${again}` : `${code}; ${again} once it can be written`;
}

/** The one line: `could not write <what> (<file>): the disk is full (ENOSPC); free some space and run it again`. */
export function cannotWriteMessage(what: string, file: string, code: string, again?: string): string {
  return `could not write ${what} (${file}): ${writeFailureAdvice(code, again)}`;
}
