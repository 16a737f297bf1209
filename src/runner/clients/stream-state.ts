/**
 * Where a client is in the terminal stream (none, snapshot, live, lagging), the changes it may
 * make, and the backlog bound past which a live client lags. ClientConn (client-conn.ts) sends
 * every change of its state through `streamTransition`.
 */

/**
 * A client's output backlog beyond this (bytes queued in our socket) means it
 * cannot keep up: we drop what it has not been sent and give it a fresh
 * snapshot once it drains, as tmux does. The bound scales with the screen so a
 * big terminal is not judged by a small one's standard (tmux: 8 x cols x rows).
 */
export const MIN_CLIENT_BACKLOG = 1024 * 1024;
export const clientBacklogLimit = (cols: number, rows: number) => Math.max(MIN_CLIENT_BACKLOG, 8 * cols * rows);

/** Where a client is in the terminal stream. */
export type StreamState =
  | 'none' // has not subscribed
  | 'snapshot' // a snapshot is being prepared; output waits in the ring
  | 'live' // gets every chunk from `cursor` on
  | 'lagging'; // fell behind; gets a fresh snapshot when its socket drains

/**
 * The stream changes a client may make. A snapshot may start over from anywhere (a new
 * subscribe, the ring losing what a snapshot needed, a drained laggard); live comes from a
 * snapshot's end or a replay; only a live client can fall behind.
 */
const LEGAL: Readonly<Record<StreamState, readonly StreamState[]>> = {
  none: ['snapshot', 'live'],
  snapshot: ['snapshot', 'live'],
  live: ['snapshot', 'live', 'lagging'],
  lagging: ['snapshot', 'live'],
};

export type Transition = { ok: true } | { ok: false; message: string };

/** The guard every stream change goes through. */
export function streamTransition(from: StreamState, to: StreamState): Transition {
  return LEGAL[from].includes(to) ? { ok: true } : { ok: false, message: `stream ${from} -> ${to} is not a legal change` };
}
