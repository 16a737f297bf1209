/**
 * The full-screen attach: the user's terminal shows the session and types into it until the
 * detach key, the session's exit, or the runner's loss (./attach-client.ts). The first frame is
 * the runner's snapshot at our size; after that, live output. On the way out the terminal is
 * given back as it was before the program touched it.
 */
import { AttachClient } from './attach-client.js';
import type { AttachOptions, AttachResult } from './attach-types.js';

export { attachHintWanted } from './attach-hint.js';
export { SessionExitedError, type AttachInput, type AttachOptions, type AttachOutput, type AttachResult } from './attach-types.js';

/** Attaches until the attach ends; the first connection's failure is thrown, the terminal as it was. */
export function runAttach(opts: AttachOptions): Promise<AttachResult> {
  return new AttachClient(opts).run();
}
