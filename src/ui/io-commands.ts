import type { SendOutcome } from '../client/send/durable-send.js';
import { promptSummary } from '../core/board/board-prompt.js';
import type { PromptResult } from '../core/board/board-types.js';
import { selectedSession } from '../core/board/board-derived.js';
import { sessionState } from '../core/session-state.js';
import { EXIT } from '../state/errors.js';
import type { CommandContext } from './command-context.js';

/**
 * The commands that talk to a session's runner from the board: a digit for
 * its dialog, the explain overlay, the prompt line. Each reports back to the
 * state as actions.
 */

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';

const viewOf = (c: CommandContext, id: string) => c.sessions.find((s) => s.id === id) ?? null;

/** A digit, typed into the selected session when it waits for an answer (its dialog is in the preview); else nothing. */
export function answerDialog(c: CommandContext, digit: string): void {
  const s = selectedSession(c.state, c.sessions);
  if (!s || sessionState(s) !== 'waiting') return;
  c.control.keys.to(s).write(digit);
  c.dispatch({ type: 'message', text: `typed ${digit} into ${s.name}` });
}

/** Opens the explain overlay and asks the runner. */
export function explainSelected(c: CommandContext): void {
  c.dispatch({ type: 'open-explain' });
  const o = c.getState().overlay;
  const s = o.kind === 'explain' ? viewOf(c, o.id) : null;
  if (o.kind !== 'explain' || !s) return;
  c.control.actions.explain(s).then(
    (explanation) => c.dispatch({ type: 'explained', id: o.id, explanation }),
    (err) => c.dispatch({ type: 'explain-failed', id: o.id, message: errorText(err) }),
  );
}

export function promptResult(t: { id: string; name: string }, o: SendOutcome): PromptResult {
  switch (o.status) {
    case 'applied':
    case 'accepted':
      return { ...t, status: o.status };
    case 'unconfirmed':
      return { ...t, status: 'unconfirmed', detail: o.message };
    case 'not_typed':
      // Held by a spent budget: the runner's line says which; `!` on the panel sends it anyway.
      if (o.exitCode === EXIT.overBudget) return { ...t, status: 'not typed', detail: o.message.replace(/: new prompts are held.*$/, ': prompts held (! sends it anyway)'), held: true };
      return { ...t, status: 'not typed', detail: o.message };
  }
}

/** Enter on the prompt line: the line to each target at once, each through send's exactly-once path. */
export function sendPromptLine(c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind !== 'prompt' || o.results.length > 0) return;
  const text = o.input.trim();
  if (!text) return;
  c.dispatch({ type: 'prompt-sending' });
  sendTo(c, o.targets, text, false);
}

/** `!` on the panel: the prompt again to the sessions whose spent budget held it, over their budgets, once each. */
export function sendPromptAnyway(c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind !== 'prompt' || o.results.some((r) => r.status === 'sending')) return;
  const held = o.results.filter((r) => r.held).map(({ id, name }) => ({ id, name }));
  if (held.length === 0) return;
  c.dispatch({ type: 'prompt-resending', ids: held.map((t) => t.id) });
  sendTo(c, held, o.sent, true);
}

function sendTo(c: CommandContext, targets: readonly { id: string; name: string }[], text: string, overBudget: boolean): void {
  const sends = targets.map(async (t): Promise<PromptResult> => {
    const s = viewOf(c, t.id);
    if (!s) return { ...t, status: 'error', detail: 'the session is gone' };
    try {
      return promptResult(t, await c.control.actions.sendPrompt(s, text, undefined, overBudget ? { overBudget } : undefined));
    } catch (err) {
      return { ...t, status: 'error', detail: errorText(err) };
    }
  });
  for (const p of sends) void p.then((result) => c.dispatch({ type: 'prompt-result', result }));
  // The panel says how each went; closed before the last answer, the footer still does.
  void Promise.all(sends).then((results) => {
    if (c.getState().overlay.kind !== 'prompt') c.dispatch({ type: 'message', ...promptSummary(results) });
  });
}
