/**
 * The commands that start, rename, kill, remove and attach to sessions (n, r, x, d, Enter): they
 * call BoardActions (or leave the board to attach) and report the outcome to the state as a message.
 */
import { selectedSession } from '../core/board/board-derived.js';
import type { KillOutcome } from '../client/session/session-actions.js';
import type { HostRecord } from '../core/protocol/host-record.js';
import type { SessionView } from '../state/host-store.js';
import type { CommandContext } from './command-context.js';
import { formInput } from './new-form-input.js';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function viewOf(c: CommandContext, id: string): SessionView | null {
  return c.sessions.find((s) => s.id === id) ?? null;
}

export function attachSelected(c: CommandContext): void {
  const s = selectedSession(c.state, c.sessions);
  if (!s) return;
  if (s.status === 'exited') {
    const how = s.exitSignal ? `was killed by ${s.exitSignal}` : `exited with code ${s.exitCode}`;
    c.dispatch({ type: 'message', text: `${s.name} ${how}; its last screen is in the preview; d removes it` });
  } else if (s.status === 'lost') {
    c.dispatch({ type: 'message', text: `${s.name} is lost: its runner is gone; R revives it, d removes it`, error: true });
  } else {
    c.dispatch({ type: 'attached', id: s.id }); // looking at it: its mark goes
    c.control.leave({ kind: 'attach', id: s.id });
  }
}

export function removeSelected(c: CommandContext): void {
  const s = selectedSession(c.state, c.sessions);
  if (!s) return;
  if (s.status === 'running' || s.status === 'starting') {
    c.dispatch({ type: 'message', text: `${s.name} is still running; x kills it first` });
    return;
  }
  c.control.actions.remove(s).then(
    (note) => c.dispatch({ type: 'message', text: note ? `removed ${s.name}; ${note}` : `removed ${s.name}` }),
    (err) => c.dispatch({ type: 'message', text: errorText(err), error: true }),
  );
}

export function killOutcomeText(name: string, r: KillOutcome): string {
  switch (r.kind) {
    case 'exit':
      return `${name} ended (${r.signal ? `killed by ${r.signal}` : `exit code ${r.code}`})`;
    case 'still-running':
      return `sent ${r.signal} to ${name}; it is still running`;
    case 'already-exited':
      return `${name} had already exited`;
    case 'signalled-orphan':
      return `sent ${r.signal} to ${name}'s orphaned program (pid ${r.pid})`;
  }
}

export function confirmKill(c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind !== 'confirm-kill') return;
  c.dispatch({ type: 'close' });
  const s = viewOf(c, o.id);
  if (!s) return;
  c.dispatch({ type: 'message', text: `killing ${s.name}…` });
  c.control.actions.kill(s).then(
    (r) => c.dispatch({ type: 'message', text: killOutcomeText(s.name, r) }),
    (err) => c.dispatch({ type: 'message', text: errorText(err), error: true }),
  );
}

/** `started api (claude)`, and why its hooks are not wired when they are not. */
function startedText(rec: HostRecord): string {
  return `started ${rec.name}${rec.agent !== 'shell' ? ` (${rec.agent})` : ''}${rec.hooksNote ? `: ${rec.hooksNote}` : ''}`;
}

/** n: the form, with the kinds as they are now (which agent CLIs are installed). */
export function openNewForm(c: CommandContext): void {
  const defaults = c.control.newDefaults;
  c.dispatch({ type: 'open-new', defaults, kinds: c.control.actions.newKinds(defaults.cwd) });
}

export function submitForm(c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind === 'new' && !o.pending) {
    const input = formInput(o);
    // What the form shows as wrong stops it here, in the form; anything else, create says.
    const plan = c.control.actions.planNew(input, c.sessions.filter((s) => !s.host).map((s) => s.name));
    if (plan.problem) return c.dispatch({ type: 'form-failed', message: plan.problem });
    c.dispatch({ type: 'form-pending' });
    c.control.actions.create(input).then(
      (rec) => c.dispatch({ type: 'form-done', message: startedText(rec), selectId: rec.id }),
      (err) => c.dispatch({ type: 'form-failed', message: errorText(err) }),
    );
  } else if (o.kind === 'rename' && !o.pending) {
    const s = viewOf(c, o.id);
    const name = o.value.trim();
    if (!s || name === s.name) return c.dispatch({ type: 'close' });
    c.dispatch({ type: 'form-pending' });
    c.control.actions.rename(s, name).then(
      () => c.dispatch({ type: 'form-done', message: `renamed ${s.name} to ${name}` }),
      (err) => c.dispatch({ type: 'form-failed', message: errorText(err) }),
    );
  }
}
