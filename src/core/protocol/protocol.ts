import type { Activity, ActivitySource } from '../agents/activity.js';
import type { StatusExplanation } from '../agents/status-explain.js';
import type { WorktreeInfo, WorktreeStats } from '../worktree/worktree.js';
import type { CmdAck, ReconcileMsg, ReconcileResult } from './control-protocol.js';

/**
 * Protocol v1: newline-delimited JSON between clients and a session's runner (runner -> client
 * frames may switch to binary1 after the hello: binary-framing.ts).
 * Shapes only; see docs/protocol.md for the conversation and its guarantees.
 */

export const PROTOCOL_VERSION = 1;

/** A frame longer than this is refused: it would pin memory in every peer. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Terminal sizes a client may ask for; anything outside is clamped. */
export const MIN_COLS = 2;
export const MAX_COLS = 1000;
export const MIN_ROWS = 1;
export const MAX_ROWS = 500;

export type SessionStatus = 'starting' | 'running' | 'exited' | 'lost';

/** What host.json holds and what `hello` / `status` carry. */
export interface HostRecord {
  id: string;
  name: string;
  /** The chat room the session belongs to; absent (records from before rooms) means `default`. */
  room?: string;
  agent: string;
  command: string;
  /** Everything the program gets: the kind's flags, the user's extra arguments, the kind's wiring. */
  args: string[];
  /** The user's own extra arguments (agent kinds), kept apart so a restart can rebuild the rest. */
  extraArgs?: string[];
  /** Environment the agent kind adds (its wiring). */
  env?: Record<string, string>;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  /** Last time the runner said it was alive (ISO). */
  heartbeatAt: string;
  /**
   * The runner cannot write this record: the error's code (ENOSPC, EDQUOT, EROFS, EACCES,
   * EPERM: src/core/write-failure.ts), since `cannotWriteSince` (ISO). Only ever in what the runner
   * says (hello, status), never in host.json: the first write that works drops both.
   */
  cannotWrite?: string;
  cannotWriteSince?: string;
  /** Last time the session printed anything (ISO), or null. */
  lastOutputAt: string | null;
  /** The last non-blank line on the session's screen, for one-line previews (at most 200 characters). */
  previewLine?: string;
  runnerPid: number | null;
  /**
   * Who the runner is besides its pid (pids are reused, after a reboot above all): the boot it
   * runs in (/proc/sys/kernel/random/boot_id) and its process's start time (/proc/<pid>/stat,
   * field 22). Written by the runner as it starts; absent in older records and off Linux.
   */
  runnerBootId?: string;
  runnerStartTime?: string;
  childPid: number | null;
  /** The program's start time (as runnerStartTime), so a program a killed runner left behind is told from a reused pid. */
  childStartTime?: string;
  generation: string | null;
  /** Increases with every change the runner makes to this record (reconcile's hostRevision). */
  revision?: number;
  status: SessionStatus;
  /** What the program is doing (src/core/agents/activity.ts), layered from its best source; absent before it says. */
  activity?: Activity;
  activitySource?: ActivitySource;
  /** When the activity last changed (ISO). */
  activitySince?: string;
  /** The session's own git worktree (`new --worktree`), and what its work amounts to (docs/worktrees.md). */
  worktree?: WorktreeInfo;
  worktreeStats?: WorktreeStats;
  /** A worktree's setup command (`--setup`), run in the PTY before the program on the first start only; `startedAt` once it ran. */
  worktreeSetup?: { command: string; startedAt?: string };
  /** Set when the kind's hooks could not be wired where it runs (one line: why, and what happens instead). */
  hooksNote?: string;
  /** In a shell session: the known agent that is the PTY's foreground program now (its status rules apply). */
  foregroundAgent?: string;
  /** The agent's own conversation id, for resume: given by `new`, or learned from its hooks or its exit line (docs/agents.md, "Resume and fork"). */
  resumeId?: string;
  /** A fork's source conversation id (`agent-board fork`): until the fork saved a conversation of its own, a restart forks from it again. */
  forkOf?: string;
  cols: number;
  rows: number;
  exitCode: number | null;
  exitSignal: string | null;
  /**
   * The program ended because a user asked for it: the signal the request sent (`SIGTERM` for
   * `kill`, the board's x, `rm --force` and `restart`, which also send SIGHUP and, 4 s later,
   * SIGKILL). Absent when it ended on its own or of a signal nobody asked for (a failure).
   */
  killed?: string;
  scrollback: number;
}

// ---- client -> runner ------------------------------------------------------

export interface ClientHello {
  type: 'hello';
  protocol: number;
  /** Free text naming the client, for the runner log. */
  client?: string;
  /** Read-only clients never resize the session and may not type. */
  readOnly?: boolean;
  /** The framings of runner -> client frames this client reads besides NDJSON, best first (`binary1`); names the runner does not know are ignored. */
  framing?: string[];
}
export interface SubscribeTerminal {
  type: 'subscribe_terminal';
  /** Resume from this output seq if the ring still holds it. */
  sinceSeq?: number;
  /** Lines of history to send with a snapshot (0 = screen only). */
  scrollback?: number;
  /** This client's size, applied (as a resize would be) before the snapshot, so the first frame fits it. */
  cols?: number;
  rows?: number;
  /** Asks the runner to write the output to the client's own terminal itself (docs/protocol.md, "Direct output"). */
  direct?: DirectRequest;
  /**
   * A note to draw over this client's first frames (the attach's detach key), for a few seconds or
   * until its first key; then a fresh exact frame (docs/protocol.md, "The attach's hint"). An older
   * runner ignores it.
   */
  hint?: string;
}
/**
 * Who the client is and which terminal it writes to, so the runner can check that the client is
 * on its machine and really holds that terminal before it opens it (src/runner/tty-check.ts).
 */
export interface DirectRequest {
  /** The terminal device: /dev/pts/N or /dev/ttyX. */
  path: string;
  /** The client's pid, its start time (field 22 of /proc/<pid>/stat) and the file descriptor it writes the terminal on. */
  pid: number;
  startTime: string;
  fd: number;
  /** /proc/sys/kernel/random/boot_id of the client's machine. */
  bootId: string;
  /** Whether the terminal shows the alternate screen now (the client's knowledge): the first frame leaves it first. */
  altScreen: boolean;
  /** An earlier writer may have stopped in the middle of an escape sequence: cancel it (CAN) before the first frame. */
  cut: boolean;
  /** Direct input too: the runner reads the keys from the terminal itself (an old runner ignores it; the client then reads them). */
  input?: DirectInputRequest;
}
/** What the runner needs to read a client's keys from its terminal (docs/protocol.md, "Direct input"). */
export interface DirectInputRequest {
  /** The client's descriptor it reads the terminal on (its stdin): /proc/<pid>/fd/<fd> must be the same `path`. */
  fd: number;
  /** The detach key's byte sequences (src/core/terminal/detach-key.ts): the runner stops reading at the first one. */
  detachKeys: string[];
}
export interface InputMsg {
  type: 'input';
  data: string;
  /** Enveloped only: a prompt, journaled and acked (accepted, applied), typed at most once. */
  durable?: boolean;
  /** Durable only: press Enter after the agent kind's delay once the text is in. */
  submit?: boolean;
  /** Durable only: hold it in the session until the program has been quiet for quietMs. */
  whenIdle?: boolean;
  quietMs?: number;
}
export interface ResizeMsg { type: 'resize'; cols: number; rows: number }
export interface InterruptMsg { type: 'interrupt' }
export interface TerminateMsg { type: 'terminate'; signal?: string }
export interface DetachMsg { type: 'detach' }
export interface StatusRequest { type: 'status' }
/**
 * Be sent `status` whenever the host record changes (status, size, name, activity). `view`: the
 * watcher's own terminal size (the board's); it never sizes the session, but when the last attach
 * leaves, the session takes the largest view offered instead of its size from before the attach.
 * Sent again with a new view when the watcher's terminal is resized.
 */
export interface SubscribeStatus { type: 'subscribe_status'; view?: { cols: number; rows: number } }
/** Make the program redraw, the way its agent kind needs (the jiggle chain's step). */
export interface RedrawMsg { type: 'redraw' }
/** An agent's lifecycle hook fired (`agent-board hook`): a status reading, maybe its session id. */
export interface HookMsg { type: 'hook'; kind: string; event: string; sessionId?: string }
/** Ask why the session shows its state: answered with `explain`. */
export interface ExplainRequest { type: 'explain' }
/** The runner owns host.json while it runs, so names change through it (answered with status). */
export interface RenameMsg { type: 'rename'; name: string }

export type ClientMessage =
  | ClientHello
  | SubscribeTerminal
  | InputMsg
  | ResizeMsg
  | InterruptMsg
  | TerminateMsg
  | DetachMsg
  | StatusRequest
  | RenameMsg
  | RedrawMsg
  | SubscribeStatus
  | ReconcileMsg
  | HookMsg
  | ExplainRequest;

export type ClientMessageType = ClientMessage['type'];

// ---- runner -> client ------------------------------------------------------

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
