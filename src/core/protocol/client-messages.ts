/** Protocol v1, client -> runner: the messages a client sends a session's runner (docs/protocol.md). */
import type { ReconcileMsg } from './control-protocol.js';

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
 * on its machine and really holds that terminal before it opens it (src/runner/direct/tty-check.ts).
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
  /** Durable only: typed even though a budget the session is under is spent (`send --over-budget`, the board's confirm). */
  overBudget?: boolean;
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
/** Resume-after-limit turned on (its prompt and tries a day) or off (null) for the session (answered with status; docs/usage.md). */
export interface ResumeAfterLimitMsg { type: 'resume_after_limit'; set: { prompt: string; perDay: number } | null }

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
  | ResumeAfterLimitMsg
  | RedrawMsg
  | SubscribeStatus
  | ReconcileMsg
  | HookMsg
  | ExplainRequest;

export type ClientMessageType = ClientMessage['type'];
