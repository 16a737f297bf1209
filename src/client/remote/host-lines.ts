/**
 * The lines `agent-board feed --json` prints on the far side of the board's `--host`
 * (src/cli/commands/feed.ts) and the board reads (src/client/remote/host-feed.ts): one JSON object a
 * line, `{"type":"sessions","sessions":[...],"pausedRooms":[...]}` with every session as
 * `ls --json` has it and the rooms of theirs the loop guard paused, or
 * `{"type":"alive"}` when nothing changed for a while. Anything else on the link (a login
 * banner, a newer kind of line) is skipped.
 */
import { checkRoomName } from '../../core/chat/chat.js';
import { asHostRecord, type SessionView } from '../../state/host-store.js';

/** `pausedRooms`: rooms of those sessions whose loop guard is paused there (absent from an older far side). */
export type FeedLine = { type: 'sessions'; sessions: readonly SessionView[]; pausedRooms?: readonly string[] } | { type: 'alive' };

export function feedLine(l: FeedLine): string {
  return JSON.stringify(l);
}

/** A line read off the link, checked as a host record is (a bad one must not break the board); null: not ours. */
export function parseFeedLine(line: string): FeedLine | null {
  if (!line.startsWith('{')) return null;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null; // a line of something else that starts with a brace: skipped, like a banner
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as { type?: unknown; sessions?: unknown; pausedRooms?: unknown };
  if (o.type === 'alive') return { type: 'alive' };
  if (o.type !== 'sessions' || !Array.isArray(o.sessions)) return null;
  const sessions = asViews(o.sessions);
  if (!Array.isArray(o.pausedRooms)) return { type: 'sessions', sessions };
  return { type: 'sessions', sessions, pausedRooms: o.pausedRooms.filter((r): r is string => typeof r === 'string' && checkRoomName(r) === null) };
}

/** Session views as another machine reported them (feed or `ls --json`): what is not a record is left out. */
export function asViews(list: readonly unknown[]): SessionView[] {
  const out: SessionView[] = [];
  for (const v of list) {
    const rec = asHostRecord(v);
    if (rec) out.push({ ...rec, runnerAlive: (v as { runnerAlive?: unknown }).runnerAlive === true });
  }
  return out;
}
