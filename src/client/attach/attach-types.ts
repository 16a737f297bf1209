/** What an attach is given and how it ends (./attach-client.ts runs it): its terminal, its connection, its options, its result. */
import type { Scheduler } from '../../core/clock.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { DetachKey } from '../../core/terminal/detach-key.js';
import type { RunnerConnection } from '../link/connection.js';
import type { TerminalIdentity } from './tty-identity.js';

/** Thrown by a connect function when the session ended while we were away. */
export class SessionExitedError extends Error {
  constructor(readonly code: number | null, readonly signal: string | null, readonly killed?: string) {
    super('the session has exited');
  }
}

export type AttachResult =
  | { reason: 'detached' }
  /** `killed`: a user asked for the end (HostRecord.killed). */
  | { reason: 'exited'; code: number | null; signal: string | null; killed?: string }
  | { reason: 'lost'; message: string };

/** The terminal an attach runs in: the user's, or a test's. */
export interface AttachInput {
  on(event: 'data', fn: (chunk: string) => void): unknown;
  off(event: 'data', fn: (chunk: string) => void): unknown;
  setEncoding?(enc: 'utf8'): unknown;
  setRawMode?(raw: boolean): unknown;
  isRaw?: boolean;
  resume(): unknown;
  pause(): unknown;
  /** Puts back keys read past the detach key, for whoever reads the terminal next (the board). */
  unshift?(chunk: string): unknown;
  /** What the stream holds unread (a board's typeahead), given out before the runner reads the keys (direct input). */
  readableLength?: number;
  read?(): unknown;
}
export interface AttachOutput {
  write(data: string): boolean;
  columns?: number;
  rows?: number;
  on(event: 'resize' | 'drain', fn: () => void): unknown;
  off(event: 'resize' | 'drain', fn: () => void): unknown;
  once(event: 'drain', fn: () => void): unknown;
}

export interface AttachOptions {
  /** Opens a fresh connection to the session's runner (first time and on reconnect). */
  connect: () => Promise<RunnerConnection>;
  /**
   * The first connection, with the first subscribe written with its hello (ConnectOptions.pipelined):
   * the frame comes a round trip sooner. Without it (the board's attach), connect() and the subscribe after the hello.
   */
  firstConnect?: (pipelined: readonly ClientMessage[]) => Promise<RunnerConnection>;
  input: AttachInput;
  output: AttachOutput;
  detachKey: DetachKey;
  readOnly?: boolean;
  /** Waits between reconnects, then the attach is lost (default ATTACH_RECONNECT's, src/client/link/retry-schedule.ts); tests shorten them. */
  reconnectDelaysMs?: number[];
  /** Timers for the reconnect waits and the jiggle chain (all released when the attach ends). */
  scheduler: Scheduler;
  /**
   * The output's terminal as a runner can check it (src/client/attach/tty-identity.ts): with it, every
   * subscribe asks the runner to write the output there itself (direct output), and the
   * connection carries only input, resizes and control. Without it, or refused, output comes on the socket.
   */
  terminal?: TerminalIdentity | null;
  /**
   * Where a refused or broken direct output is told (the board's log), and a move the attach's
   * table refused (a bug; without a log, it is written on the terminal once it is given back).
   */
  log?: (line: string) => void;
  /** Direct output went on or off: nothing the client writes may go into the runner's output meanwhile (the board's rings). */
  onDirect?: (on: boolean) => void;
  /**
   * Whether the first frame carries the note that names the detach key (drawn by the runner over
   * this client's frames for a few seconds or until the first key; src/runner/stream/attach-hint.ts).
   * Default on; AGENT_BOARD_ATTACH_HINT=0 turns it off (attachHintWanted).
   */
  hint?: boolean;
}
