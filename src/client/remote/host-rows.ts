/**
 * The board's rows of several machines, without any I/O (src/client/remote/remote-feed.ts uses it):
 * a remote session's key (`host/id`: ids are only unique on their own machine, a local id has
 * no `/`), the merged list (this machine's first, then each host in the order given, each
 * oldest first), the backoff of a poll that failed (remote-chat.ts) and the line a host that cannot be reached shows.
 */
import { roomOf } from '../../core/chat/chat.js';
import type { SessionView } from '../../state/host-store.js';
import { sameButHeartbeat } from '../feed/feed-records.js';
import { HOST_RECONNECT, retryDelay } from '../link/retry-schedule.js';

/** The board's key of session `id` on `host`. */
export const remoteKey = (host: string, id: string): string => `${host}/${id}`;

/** Whether a board key is a remote session's (local ids never hold a `/`). */
export const isRemoteKey = (key: string): boolean => key.includes('/');

/** What one host contributes: the sessions as last reported there, and whether the link is down. */
export interface HostRows {
  host: string;
  sessions: readonly SessionView[];
  stale: boolean;
}

/**
 * A remote view as a board row: keyed by host and id, its machine named, stale while the link
 * is down, and its room `host/room` (room names hold no `/`): the chat pane of a remote row is
 * that machine's room (src/client/remote/remote-chat.ts), never this machine's of the same name.
 */
export function asRemoteRow(host: string, s: SessionView, stale: boolean): SessionView {
  return { ...s, id: remoteKey(host, s.id), host, remoteId: s.id, room: remoteKey(host, roomOf(s)), ...(stale ? { stale: true } : {}) };
}

/** A board room `host/room` as its machine and its name there; null for this machine's rooms. */
export function remoteRoom(room: string): { host: string; room: string } | null {
  const at = room.lastIndexOf('/');
  return at > 0 ? { host: room.slice(0, at), room: room.slice(at + 1) } : null;
}

/**
 * One host's rows, each the object it was last time while it shows the same (the far side sends
 * whole lists, and a row is drawn again only when its object changes: src/ui/components/SessionList.tsx).
 */
export function hostRows(h: HostRows, before: readonly SessionView[] = []): SessionView[] {
  const old = new Map(before.map((r) => [r.id, r]));
  return h.sessions.map((s) => {
    const row = asRemoteRow(h.host, s, h.stale);
    const was = old.get(row.id);
    return was && sameButHeartbeat(was, row) ? was : row;
  });
}

/** This machine's rows first, then each host's in the order given; within each, oldest first (as they came). */
export function mergeRows(local: readonly SessionView[], hosts: readonly HostRows[]): SessionView[] {
  return [...local, ...hosts.flatMap((h) => hostRows(h))];
}

/** The wait before try number `failures` (1: the first after a failure) at a host: HOST_RECONNECT's, capped at its last. */
export function backoffMs(failures: number): number {
  return retryDelay(HOST_RECONNECT, failures)!;
}

/** The one line a host that cannot be reached shows: `box: unreachable (ssh: ...); retrying in 10 s`. */
export function unreachableLine(host: string, reason: string, retryInMs: number | null): string {
  const when = retryInMs === null ? 'retrying now' : `retrying in ${Math.max(1, Math.round(retryInMs / 1000))} s`;
  return `${host}: unreachable (${reason}); ${when}`;
}

/** The hosts of --host and config.json `hosts`, each once, in that order. */
export function boardHosts(flags: readonly string[], configured: readonly string[]): string[] {
  return [...new Set([...flags, ...configured])];
}
