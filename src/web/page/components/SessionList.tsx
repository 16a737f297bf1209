/** The list of every session: unreachable hosts said first, waiting sessions first of all. */
import type { WebRow } from '../../../core/web/web-protocol.js';
import { useNow, usePageState } from '../page-context.js';
import { SessionRow } from './SessionRow.js';

/** The rows' "time since output" moves on every second. */
const TICK_MS = 1000;

/** Waiting sessions come first (they need the user); otherwise the server's order (the board's). */
const order = (rows: readonly WebRow[]): WebRow[] => [...rows.filter((r) => r.state === 'waiting' && !r.stale), ...rows.filter((r) => r.state !== 'waiting' || r.stale)];

export function SessionList() {
  const s = usePageState();
  const now = useNow(TICK_MS) + s.skewMs;
  const openId = s.route.view === 'session' || s.route.view === 'diff' ? s.route.id : null;
  const readOnly = s.welcome?.readOnly ?? true;
  return (
    <section class="list" aria-label="sessions">
      {s.hostLines.map((l) => (
        <div class="banner host-line" key={l}>
          {l}
        </div>
      ))}
      {s.rows.length === 0 ? <p class="empty">{s.link === 'open' ? 'No sessions. Start one with agent-board new.' : 'Connecting…'}</p> : null}
      <ul class="rows">
        {order(s.rows).map((r) => (
          <SessionRow key={r.id} row={r} marked={s.marked.includes(r.id)} open={r.id === openId} now={now} readOnly={readOnly} />
        ))}
      </ul>
    </section>
  );
}
