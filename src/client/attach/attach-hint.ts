/** The note an attach asks the runner to draw over its first frame (src/runner/attach-hint.ts): its words, and whether it is wanted. */
import type { DetachKey } from '../../core/terminal/detach-key.js';

/** The note over the first frame: how to leave. */
export function attachHintText(key: DetachKey, readOnly: boolean): string {
  return `${readOnly ? 'read-only · ' : ''}${key.label} detaches · agent-board`;
}

/** Whether attaches show the note: AGENT_BOARD_ATTACH_HINT=0 (or off, no, false) turns it off. */
export function attachHintWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  return !/^(0|off|no|false)$/i.test(env.AGENT_BOARD_ATTACH_HINT ?? '');
}
