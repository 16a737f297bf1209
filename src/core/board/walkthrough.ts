/**
 * The demo's walkthrough on the board: while the demo's sessions are on it (room `demo`, this
 * machine's), a line says what the demo shows and the keys that matter, until the user hides it
 * (its key; the home remembers: src/state/demo-state.ts). Pure: what it says and when.
 */
import { roomOf } from '../chat/chat.js';
import type { BoardSession } from './board-types.js';

/** The demo's room (`agent-board demo`, src/demo/demo-setup.ts). */
export const DEMO_ROOM = 'demo';

/** The walkthrough shows: not hidden, and a session of the demo's room on this machine is on the board. */
export function walkthroughShown(hidden: boolean, sessions: readonly BoardSession[]): boolean {
  return !hidden && sessions.some((s) => !s.host && roomOf(s) === DEMO_ROOM);
}

/** Its two sentences: what the demo shows, and the keys (the detach key as the board has it; `hideKey` hides the line). */
export function walkthroughText(detachLabel: string, hideKey: string): { what: string; keys: string } {
  return {
    what: `demo: alice and bob (scripted, no AI) answer each other in room ${DEMO_ROOM}'s chat until the loop guard pauses it`,
    keys: `Enter attaches · ${detachLabel} comes back · q quits (sessions keep running) · ${hideKey} hides`,
  };
}
