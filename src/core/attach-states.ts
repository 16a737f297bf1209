/**
 * The attach client's states and the one table of its legal moves (src/client/attach/ drives
 * them), after the runner's client table (src/runner/stream-state.ts): every change goes through
 * `attachMove`, and a move the table does not have is refused as an error value, never made.
 *
 *   connecting    the first connection is on its way (its failure is the caller's)
 *   subscribing   connected: reconcile and subscribe sent, waiting for the first frame
 *   live          the stream is on the terminal (the frame, then output)
 *   handing-back  detached while the runner writes to the terminal itself: waiting for its direct_off
 *   reconnecting  the connection dropped without an exit: the link is trying again
 *   ended         detached, exited or lost; the terminal is given back
 */

export type AttachState = 'connecting' | 'subscribing' | 'live' | 'handing-back' | 'reconnecting' | 'ended';

/** What happened, each naming one column of the table. */
export type AttachEvent =
  /** A connection is up (the first, or a reconnect's). */
  | 'connected'
  /** A frame of the subscription came (snapshot_end, replay_begin): the stream is live from there. */
  | 'frame'
  /** The detach key with direct output on: the runner hands the terminal back first. */
  | 'hand-back'
  /** The connection closed without an exit. */
  | 'dropped'
  /** Detached, exited, lost, or the first connect failed. */
  | 'end';

/**
 * The moves: from each state, what each event leads to. A frame while live is a later frame on
 * the same subscription (the runner's own, for a client that fell behind): no new watcher. What
 * a state lacks is illegal: a dropped connection while handing back is the hand-back's end, which
 * the client makes as `end`; nothing leaves `ended`.
 */
const MOVES: Readonly<Record<AttachState, Readonly<Partial<Record<AttachEvent, AttachState>>>>> = {
  connecting: { connected: 'subscribing', end: 'ended' },
  subscribing: { frame: 'live', 'hand-back': 'handing-back', dropped: 'reconnecting', end: 'ended' },
  live: { frame: 'live', 'hand-back': 'handing-back', dropped: 'reconnecting', end: 'ended' },
  reconnecting: { connected: 'subscribing', end: 'ended' },
  'handing-back': { frame: 'handing-back', end: 'ended' },
  ended: {},
};

export type AttachMove = { ok: true; to: AttachState } | { ok: false; message: string };

/** The guard every change of the attach goes through. */
export function attachMove(from: AttachState, on: AttachEvent): AttachMove {
  const to = MOVES[from][on];
  return to ? { ok: true, to } : { ok: false, message: `attach: '${on}' while ${from} is not a legal move` };
}
