/**
 * The control lifecycle on top of protocol v1 (docs/protocol.md): command envelopes,
 * staged acks and what each command type promises. Pure decisions only; the
 * runner (src/runner/control/control.ts) and the clients (src/client/send/control-channel.ts)
 * do the I/O. docs/protocol.md has the conversation.
 */

/** Fields that make a command enveloped. A message with none of them takes the legacy path, unchanged. */
export const ENVELOPE_FIELDS = ['commandId', 'clientId', 'seq', 'viewId', 'instanceId'] as const;

export interface Envelope {
  /** Names the command for its whole life: acks, the journal, dedup and reconcile. */
  commandId: string;
  /** Names the client process (stable across its reconnects). */
  clientId: string;
  /** Per connection, strictly increasing: an ordering aid, never a dedup key. */
  seq: number;
  /** The session the client means (its id). */
  viewId: string;
  /** The runner instance the client means: the generation it read in hello. */
  instanceId: string;
}

/** Command types that may carry an envelope; on any other type the fields are ignored. */
export const CONTROL_TYPES = ['input', 'resize', 'interrupt', 'terminate', 'detach', 'redraw', 'reconcile'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

/** Ids are opaque to the runner but bounded, printable and safe to log. */
const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const isCommandId = (v: unknown): v is string => typeof v === 'string' && ID_PATTERN.test(v);

export type EnvelopeCheck =
  | { kind: 'legacy' }
  | { kind: 'enveloped'; envelope: Envelope }
  | { kind: 'invalid'; message: string };

/** Legacy detection and envelope validation in one: all five fields, or none. */
export function readEnvelope(value: Record<string, unknown>): EnvelopeCheck {
  const present = ENVELOPE_FIELDS.filter((f) => value[f] !== undefined);
  if (present.length === 0) return { kind: 'legacy' };
  if (!(CONTROL_TYPES as readonly unknown[]).includes(value.type)) return { kind: 'legacy' };
  const missing = ENVELOPE_FIELDS.filter((f) => value[f] === undefined);
  if (missing.length > 0) return { kind: 'invalid', message: `envelope is missing ${missing.join(', ')}` };
  for (const f of ['commandId', 'clientId', 'viewId', 'instanceId'] as const) {
    if (!isCommandId(value[f])) return { kind: 'invalid', message: `envelope "${f}" must be 1-128 characters of A-Z a-z 0-9 . _ : -` };
  }
  const seq = value.seq;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    return { kind: 'invalid', message: 'envelope "seq" must be a whole number from 1' };
  }
  const { commandId, clientId, viewId, instanceId } = value as unknown as Envelope;
  return { kind: 'enveloped', envelope: { commandId, clientId, seq, viewId, instanceId } };
}

/** Puts an envelope on a command, fields in a fixed order so frames are stable. */
export function withEnvelope<T extends { type: string }>(message: T, envelope: Envelope): T & Envelope {
  const { commandId, clientId, seq, viewId, instanceId } = envelope;
  return { ...message, commandId, clientId, seq, viewId, instanceId };
}

// ---- per-type semantics: what each command type promises ---------------------

export type CommandClass = 'durable_input' | 'keystroke' | 'resize' | 'interrupt' | 'terminate' | 'detach' | 'redraw' | 'reconcile';

export type AckStage = 'accepted' | 'applied' | 'observed' | 'superseded' | 'rejected';

/** What a client may do about a command it lost track of (timeout, disconnect). */
export type RetryRule =
  | 'reconcile_first' // ask the runner by commandId; resend only if it never saw the command
  | 'never' // not idempotent, or stale once the moment passed: drop it
  | 'same_id' // idempotent: send again with the same commandId
  | 'new_id'; // latest wins: send the current value under a new commandId

export interface CommandSemantics {
  /** Acks the runner sends, in order, on success. Empty: fire-and-forget. */
  stages: readonly AckStage[];
  /** Written to the session's journal before it is accepted. */
  journaled: boolean;
  /** The runner remembers its final ack and answers the same commandId with it. */
  deduplicated: boolean;
  retry: RetryRule;
}

export const COMMAND_SEMANTICS: Readonly<Record<CommandClass, CommandSemantics>> = Object.freeze({
  // A prompt: typed exactly once or reported unknown. Accepted once journaled, applied once written.
  durable_input: { stages: ['accepted', 'applied'], journaled: true, deduplicated: true, retry: 'reconcile_first' },
  // A key press: a retry after a disconnect would type into a screen the user no longer sees.
  keystroke: { stages: [], journaled: false, deduplicated: false, retry: 'never' },
  // Applied with the real clamped size; a newer one supersedes an older un-applied one. Never
  // "observed": the runner cannot know the child finished repainting.
  resize: { stages: ['applied'], journaled: false, deduplicated: true, retry: 'new_id' },
  // A second Ctrl-C may quit the program: never repeated.
  interrupt: { stages: ['applied'], journaled: false, deduplicated: true, retry: 'never' },
  // Idempotent: applied when the signal is sent, observed when the child exits.
  terminate: { stages: ['applied', 'observed'], journaled: false, deduplicated: true, retry: 'same_id' },
  detach: { stages: ['applied'], journaled: false, deduplicated: true, retry: 'same_id' },
  redraw: { stages: ['applied'], journaled: false, deduplicated: true, retry: 'never' },
  // Answered with reconcile_result; a lost answer is asked for again on a new connection, never blind.
  reconcile: { stages: [], journaled: false, deduplicated: false, retry: 'never' },
});

/** The class of a control message: input is durable only when it says so. */
export function classifyCommand(message: { type: ControlType; durable?: boolean }): CommandClass {
  if (message.type === 'input') return message.durable ? 'durable_input' : 'keystroke';
  return message.type;
}

/** A stage after which nothing more comes for the command. */
export function isFinalStage(cls: CommandClass, stage: AckStage): boolean {
  if (stage === 'rejected' || stage === 'superseded') return true;
  const stages = COMMAND_SEMANTICS[cls].stages;
  return stages.length > 0 && stages[stages.length - 1] === stage;
}

// ---- acks and reconcile -------------------------------------------------------

/** Why a runner refused a command. Not cached: the same commandId may be tried again. */
export type RejectCode =
  | 'envelope_invalid'
  | 'instance_mismatch' // meant for another runner instance (the runner restarted)
  | 'view_mismatch' // meant for another session
  | 'journal_unavailable' // durable input cannot be journaled (full disk, read-only)
  | 'over_budget' // a prompt while a budget the session is under is spent, without overBudget: held, not typed
  | 'accepted_unknown' // a prompt an earlier runner instance accepted and never confirmed: never typed again
  | 'read_only'
  | 'session_exited'
  | 'invalid_message';

export interface CmdAck {
  type: 'cmd_ack';
  commandId: string;
  stage: AckStage;
  /** resize, applied: the size the PTY really has (after clamping). */
  cols?: number;
  rows?: number;
  /** superseded: the newer command that replaced this one. */
  byCommandId?: string;
  /** terminate, observed: how the child ended. */
  exitCode?: number | null;
  exitSignal?: string | null;
  /** rejected: why, in a code and a line for people. */
  code?: RejectCode;
  message?: string;
  /** A repeat of a final ack the runner remembered (the same commandId sent again). */
  cached?: boolean;
}

/** Where a command stands, as reconcile reports it. */
export type CommandStatus =
  | 'unknown' // never seen (or forgotten by the journal's GC)
  | 'accepted' // journaled by this runner instance, not yet applied (in flight or queued)
  | 'applied' // done
  | 'accepted_unknown' // journaled by an earlier instance that died before applying it: it may or may not have been typed
  | 'failed'; // journaled, then known not to have been typed (the session exited first)

export interface ReconcileMsg {
  type: 'reconcile';
  /** Commands to report on, whatever their status. */
  commandIds?: string[];
}

export interface ReconcileResult {
  type: 'reconcile_result';
  /** The envelope's commandId, when the reconcile carried one. */
  commandId?: string;
  generation: string;
  /** Increases with every change of the host record. */
  hostRevision: number;
  /** The last output seq the runner produced (-1: none yet). */
  terminalCursor: { lastSeq: number };
  /** Every durable command not known to be done, oldest first. */
  unresolved: Array<{ commandId: string; status: 'accepted' | 'accepted_unknown' }>;
  /** The status of each commandId asked for. */
  commands: Array<{ commandId: string; status: CommandStatus }>;
}

// ---- seq ordering -----------------------------------------------------------------

/** Per connection: seq must increase. Out-of-order envelopes are dropped, not deduplicated. */
export class SeqGate {
  private last = 0;
  admit(seq: number): { ok: true } | { ok: false; message: string } {
    if (seq <= this.last) return { ok: false, message: `seq ${seq} after ${this.last}: out of order, dropped` };
    this.last = seq;
    return { ok: true };
  }
}
