/** The board's revive: every lost session brought back with one key (R), or on start when config.json says autoRevive; the outcome on the notice line. */
import { reviveLine, type ReviveOutcome } from '../client/session/session-revive.js';
import type { SessionView } from '../state/host-store.js';
import type { CommandContext } from './command-context.js';

/**
 * A lost session: what R revives and the banner counts. A row of another machine (the board's
 * --host) is revived there, over ssh (src/client/remote/remote-revive.ts); not while its link is down
 * (a stale row shows what was, not what is).
 */
export function revivable(s: Pick<SessionView, 'status' | 'stale'>): boolean {
  return s.status === 'lost' && s.stale !== true;
}

const isFailure = (o: ReviveOutcome) => o.kind === 'failed' || (o.kind === 'remote' && !o.ok);

/** `alice revived (claude, …); bob not revived: …`: one line for the footer, the failures first. */
export function reviveSummary(outcomes: readonly ReviveOutcome[]): string {
  const failed = outcomes.filter(isFailure);
  return [...failed, ...outcomes.filter((o) => !isFailure(o))].map(reviveLine).join('; ');
}

/**
 * Revives every session the feed shows lost, as `agent-board revive --all` does; `auto` when the
 * board does it on start (config.json autoRevive), which the message says. Pressed again while a
 * revive is under way, each session's revive claim (src/state/revive-claim.ts) keeps it to one.
 */
export function reviveLost(c: CommandContext, auto = false): void {
  const lost = c.sessions.filter(revivable);
  if (lost.length === 0) {
    if (!auto) c.dispatch({ type: 'message', text: 'no session is lost: nothing to revive' });
    return;
  }
  const what = `${lost.length} lost ${lost.length === 1 ? 'session' : 'sessions'}`;
  const why = auto ? ' (autoRevive is on in config.json)' : '';
  c.dispatch({ type: 'message', text: `reviving ${what}${why}…` });
  let done = 0;
  // Each one as it comes (a revive of many takes seconds), then all of them in one line.
  const progress = (o: ReviveOutcome) => c.dispatch({ type: 'message', text: `reviving ${what}: ${++done}/${lost.length} ${reviveLine(o)}`, error: isFailure(o) });
  c.control.actions.revive(lost, progress).then(
    (outcomes) => c.dispatch({ type: 'message', text: `${auto ? 'autoRevive: ' : ''}${reviveSummary(outcomes)}`, error: outcomes.some(isFailure) }),
    (err) => c.dispatch({ type: 'message', text: err instanceof Error ? err.message : String(err), error: true }),
  );
}
