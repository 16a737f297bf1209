/** How a session's program ended, as data, and the signal names it is told in. */
import os from 'node:os';

/** How a child ended, as data. */
export interface ChildExit {
  code: number | null;
  signal: string | null;
}

/** Built on the first exit, not at load: the runner's bundle loads node:os on first use (scripts/bundle-builtins.mjs). */
let signalNames: Map<number, string> | undefined;

/** SIGTERM for 15; the number itself for one the platform has no name for; null for none. */
export function signalName(num: number | undefined): string | null {
  signalNames ??= new Map(Object.entries(os.constants.signals).map(([name, num]) => [num, name]));
  return num ? (signalNames.get(num) ?? String(num)) : null;
}
