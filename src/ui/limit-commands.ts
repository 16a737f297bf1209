/** L: resume-after-limit on or off for the selected session (docs/usage.md, "Carrying on after a limit"); the footer says what it set. */
import { selectedSession } from '../core/board/board-derived.js';
import type { CommandContext } from './command-context.js';

export function toggleResumeAfterLimit(c: CommandContext): void {
  const s = selectedSession(c.state, c.sessions);
  if (!s) return;
  const on = !s.resumeAfterLimit;
  c.control.actions.resumeAfterLimit(s, on).then(
    (set) =>
      c.dispatch({
        type: 'message',
        text: set ? `${s.name} carries on after a usage limit: types ${JSON.stringify(set.prompt)} once it resets (at most ${set.perDay} a day)` : `${s.name} waits for you after a usage limit (resume-after-limit off)`,
      }),
    (err) => c.dispatch({ type: 'message', text: err instanceof Error ? err.message : String(err), error: true }),
  );
}
