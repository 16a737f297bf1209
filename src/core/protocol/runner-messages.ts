/**
 * Protocol v1, runner -> client: the frames a session's runner sends its clients, and the codes of
 * its `error` frame (docs/protocol.md).
 */
import type { StatusExplanation } from '../agents/status-explain.js';
import type { CmdAck, ReconcileResult } from './control-protocol.js';
import type { HostRecord } from './host-record.js';

export interface RunnerHello {
  type: 'hello';
  protocol: number;
  generation: string;
  host: HostRecord;
  /** The framing of every frame after this hello (which is NDJSON); absent: NDJSON, as before framings existed. */
  framing?: 'binary1';
}
export interface SnapshotBegin {
  type: 'snapshot_begin';
  /** The frame shows the screen after every output chunk before this seq. */
  seq: number;
  cols: number;
  rows: number;
  generation: string;
  /** How many history lines follow in snapshot_history frames. */
  historyLines: number;
}
/** Rebuilds the visible screen, cursor and modes in a terminal of cols x rows. */
export interface SnapshotScreen { type: 'snapshot_screen'; data: string }
/** History lines, oldest first; written before the screen they become scrollback. */
export interface SnapshotHistory { type: 'snapshot_history'; data: string }
export interface SnapshotEnd { type: 'snapshot_end'; nextSeq: number }
export interface ReplayBegin { type: 'replay_begin'; fromSeq: number; generation: string }
export interface OutputMsg { type: 'output'; seq: number; data: string }
export interface StatusMsg { type: 'status'; host: HostRecord; generation: string }
export interface ExplainMsg { type: 'explain'; explanation: StatusExplanation }
/** `killed`: the signal a user's request sent, when that is why the program ended (HostRecord.killed). */
export interface ExitMsg { type: 'exit'; code: number | null; signal: string | null; killed?: string }
export interface ByeMsg { type: 'bye'; reason: 'detach' | 'exit' | 'shutdown' }
/** The runner writes this client's output to its terminal itself, from the next frame on. */
export interface DirectOn {
  type: 'direct_on';
  /** The runner also reads the client's keys from the terminal (direct input): the client must not read them. */
  input?: boolean;
}
/** The runner will not write to the client's terminal (why, in a line): output comes on the socket as before. */
export interface DirectRefused { type: 'direct_refused'; reason: string }
/** Whether the terminal is on the alternate screen, said when it changes (true as soon as a switch to it is queued, false once a switch back is written). */
export interface DirectAlt { type: 'direct_alt'; active: boolean }
/** The output the runner wrote since the stream went live showed the kind's settle marker (the jiggle chain may stop). */
export interface DirectSettled { type: 'direct_settled' }
/**
 * The runner stopped writing to the terminal and everything it wrote is with the kernel (on
 * detach, before the program's exit, or when a subscribe replaces it); `cut` when it had to
 * drop bytes it could not write in time (the terminal may be inside an escape sequence).
 */
export interface DirectOff {
  type: 'direct_off';
  altScreen: boolean;
  cut: boolean;
  /** Direct input: keys the runner read after the detach key, in the same read (the client puts them back for the terminal's next reader). */
  keys?: string;
}
export interface ErrorMsg {
  type: 'error';
  code: ErrorCode;
  message: string;
  /** The enveloped command the error is about, if any. */
  commandId?: string;
}

export type RunnerMessage =
  | RunnerHello
  | SnapshotBegin
  | SnapshotScreen
  | SnapshotHistory
  | SnapshotEnd
  | ReplayBegin
  | OutputMsg
  | StatusMsg
  | ExitMsg
  | ByeMsg
  | ErrorMsg
  | DirectOn
  | DirectRefused
  | DirectAlt
  | DirectSettled
  | DirectOff
  | CmdAck
  | ReconcileResult
  | ExplainMsg;

export type ErrorCode =
  | 'frame_too_large'
  | 'malformed_json'
  | 'invalid_message'
  | 'unknown_type'
  | 'unsupported_protocol'
  | 'not_hello'
  | 'read_only'
  | 'session_exited'
  | 'envelope_invalid'
  | 'seq_out_of_order'
  /** A change the runner could not write to host.json (a full disk...): not made. */
  | 'cannot_write';
