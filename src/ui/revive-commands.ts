/** The board's revive: every lost session brought back with one key (R), or on start when config.json says autoRevive; the outcome on the notice line. */
import { reviveLine, type ReviveOutcome } from '../client/session-revive.js';
import type { SessionView } from '../state/host-store.js';
import type { CommandContext } from './session-commands.js';

/**
 * A lost session of this machine: what R revives and the banner counts. A row of another
 * machine (the board's --host: its view has a `host`) is revived there, with `agent-board revive`.
 */
export function revivable(s: Pick<SessionView, 'status'>): boolean {
  return s.status === 'lost' && !('host' in s && s.host !== undefined);
}

/** `alice revived (claude, …); bob not revived: …`: one line for the footer, the failures first. */
export function reviveSummary(outcomes: readonly ReviveOutcome[]): string {
  const failed = outcomes.filter((o) => o.kind === 'failed');
  return [...failed, ...outcomes.filter((o) => o.kind !== 'failed')].map(reviveLine).join('; ');
}

/**
 * Revives every session the feed shows lost, as `agent-board revive --all` does; `auto` when the
 * board does it on start (config.json autoRevive), which the message says. Pressed again while a
 * revive is under way, each session's revive claim (src/state/revive-claim.ts) keeps it to one.
 */
export function reviveLost(c: CommandContext, auto = false): void {
  const lost = c.feed.sessions.filter(revivable);
  if (lost.length === 0) {
    if (!auto) c.dispatch({ type: 'message', text: 'no session is lost: nothing to revive' });
    return;
  }
  const what = `${lost.length} lost ${lost.length === 1 ? 'session' : 'sessions'}`;
  const why = auto ? ' (autoRevive is on in config.json)' : '';
  c.dispatch({ type: 'message', text: `reviving ${what}${why}…` });
  let done = 0;
  // Each one as it comes (a revive of many takes seconds), then all of them in one line.
  const progress = (o: ReviveOutcome) => c.dispatch({ type: 'message', text: `reviving ${what}: ${++done}/${lost.length} ${reviveLine(o)}`, error: o.kind === 'failed' });
  c.control.actions.revive(lost, progress).then(
    (outcomes) => c.dispatch({ type: 'message', text: `${auto ? 'autoRevive: ' : ''}${reviveSummary(outcomes)}`, error: outcomes.some((o) => o.kind === 'failed') }),
    (err) => c.dispatch({ type: 'message', text: err instanceof Error ? err.message : String(err), error: true }),
  );
}
