/** An error as one line for the board log (src/client/feed/board-log.ts): where it came from, not only what. */

/** Its stack's first frames when it has one (enough to find the line), else the value as text. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return (err.stack ?? `${err.name}: ${err.message}`).split('\n').slice(0, 4).map((l) => l.trim()).join(' | ');
  return String(err);
}
