/**
 * The page's list (src/core/web/web-protocol.ts `WebRow`): one row per session, saying what the
 * board's row says (src/ui/ink/list-lines.ts: the state word, the agent, a worktree's branch and
 * counts, the last screen line, the time of the last output), plus what only the page shows: a
 * waiting session's dialog and whether this device muted it. Pure: the web hub
 * (src/web/server/hub) builds the rows once per change and marks each device's mutes.
 */
import { agentLabel } from '../agents/agent-kinds.js';
import type { DialogText } from '../agents/dialog-text.js';
import { statusText } from '../board/board-derived.js';
import type { HostRecord } from '../protocol/host-record.js';
import { sessionState } from '../session-state.js';
import { worktreeSummary } from '../worktree/worktree.js';
import type { WebRow } from './web-protocol.js';
import { sandboxBrief } from '../sandbox/sandbox-text.js';

/** A session as the feed lists it (src/state/host-store.ts SessionView, which core cannot import). */
export type RowSession = HostRecord & { host?: string; stale?: boolean };

/** The rows of every session, in the feed's order, muted for nobody yet (see markMuted). */
export function webRows(sessions: readonly RowSession[], dialog: (id: string) => DialogText | null): WebRow[] {
  return sessions.map((s) => webRow(s, dialog));
}

export function webRow(s: RowSession, dialog: (id: string) => DialogText | null): WebRow {
  const state = sessionState(s);
  const row: WebRow = {
    id: s.id,
    name: s.name,
    kind: agentLabel(s),
    state,
    // The board's row says `no link` for a host it cannot reach; its state word is as last seen.
    stateText: s.stale ? 'no link' : statusText(s),
    lastLine: s.previewLine ? s.previewLine.trim() : '',
    lastOutputAt: s.lastOutputAt,
    worktree: s.worktree ? worktreeSummary(s.worktree, s.worktreeStats) : null,
    room: s.room ?? 'default',
    // Only a waiting session's question is worth a button: a dialog read off another screen is a stale guess.
    dialog: state === 'waiting' ? dialog(s.id) : null,
    muted: false,
  };
  if (state === 'limited' && s.limited) row.resetAt = s.limited.resetAt;
  if (s.host !== undefined) row.host = s.host;
  if (s.stale) row.stale = true;
  if (s.sandbox) row.sandbox = sandboxBrief(s.sandbox);
  return row;
}

/** The same rows for one device: those it muted say so (a new array only when one changed). */
export function markMuted(rows: readonly WebRow[], muted: (id: string) => boolean): WebRow[] {
  let out: WebRow[] | null = null;
  rows.forEach((r, i) => {
    if (!muted(r.id)) return;
    out ??= rows.slice();
    out[i] = { ...r, muted: true };
  });
  return out ?? (rows as WebRow[]);
}
