/**
 * The board's R on rows of other machines (the board's --host): each host's lost sessions are
 * revived there, by `agent-board revive <id>...` over ssh, which checks and claims them on
 * their own machine as a local revive does here. It prints one line per session, in the order
 * given; each becomes that row's outcome. A host that cannot be reached, or an older far side,
 * is one failed outcome per row with the line ssh or it gave.
 */
import type { Scheduler } from '../../core/clock.js';
import type { SessionView } from '../../state/host-store.js';
import { runRemote } from './remote.js';
import type { ReviveOutcome } from '../session/session-revive.js';

/** `agent-board revive`'s exit codes that still mean "each session has its line": all revived, some not. */
const REVIVE_ANSWERED = [0, 5] as const;

/** A line of the far side's revive that is not a failure: revived, or nothing to do. */
const fine = (line: string) => / revived \(/.test(line) || /: nothing to do$/.test(line);

/** Revives `rows` (remote rows: host and remoteId set) on their machines, one ssh per host at a time. */
export async function reviveRemote(rows: readonly SessionView[], scheduler: Scheduler, onOutcome?: (o: ReviveOutcome) => void): Promise<ReviveOutcome[]> {
  const byHost = new Map<string, SessionView[]>();
  for (const r of rows) if (r.host && r.remoteId) byHost.set(r.host, [...(byHost.get(r.host) ?? []), r]);
  const out: ReviveOutcome[] = [];
  for (const [host, sessions] of byHost) {
    let lines: string[];
    try {
      const printed = await runRemote(host, ['revive', ...sessions.map((s) => s.remoteId!)], scheduler, '', REVIVE_ANSWERED);
      lines = printed.split('\n').filter((l) => l.trim() !== '');
    } catch (err) {
      const why = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed';
      lines = sessions.map((s) => `${s.name} not revived: ${why}`);
    }
    sessions.forEach((session, i) => {
      const line = lines[i] ?? `${session.name} not revived: its machine printed no line for it`;
      const o: ReviveOutcome = { kind: 'remote', session, line, ok: fine(line) };
      out.push(o);
      onOutcome?.(o);
    });
  }
  return out;
}
