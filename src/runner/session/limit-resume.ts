/**
 * Resume-after-limit (`new --resume-after-limit`, docs/usage.md "Carrying on after a limit"): once
 * a limited session's limit has reset, plus a small random delay, the runner types the session's
 * prompt ("continue") as a durable prompt of the control journal (src/runner/control), under a
 * command id made from the reset: a runner that restarts, or a session revived after a reboot, finds
 * it in the journal and neither types it again nor loses it. At most `perDay` tries in a day
 * (host.json's `limitResumes`); an agent still limited after a try waits for its next reset.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { isoTime } from '../../core/iso-time.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { InputMsg } from '../../core/protocol/client-messages.js';
import type { CommandStatus } from '../../core/protocol/control-protocol.js';
import type { HostRecord, LimitResumeTry } from '../../core/protocol/host-record.js';
import { resumeCommandId, resumePlan, triedAfter } from '../../core/usage/limit-state.js';
import type { Logger } from '../log.js';

/**
 * The longest random delay after a reset: sessions that hit the same limit (one account) do not
 * all come back in the same second, and a reset stated to the minute ("resets 3pm") is over by then.
 */
export const RESUME_DELAY_MAX_MS = 90_000;
/** A prompt the journal could not take (a full disk) is tried again this much later. */
const JOURNAL_RETRY_MS = 60_000;
/** A prompt a spent budget holds is looked at again this much later (the budget may be raised meanwhile). */
const BUDGET_RETRY_MS = 30_000;
/**
 * A prompt held by a dialog on the agent's screen is looked at again this much later: the dialog
 * goes when the user answers it, which the runner sees only as a change of the screen.
 */
const DIALOG_RETRY_MS = 2000;
/** The client id the runner's own prompts are journaled under. */
export const RESUME_CLIENT_ID = 'resume-after-limit';

export interface LimitResumeDeps {
  record(): Pick<HostRecord, 'limited' | 'resumeAfterLimit' | 'limitResumes'>;
  /** Keep one more try in the record (durably). */
  addTry(t: LimitResumeTry): void;
  /** The session's durable prompts (src/runner/control/durable-inputs.ts). */
  prompts: { status(commandId: string): CommandStatus | undefined; accept(commandId: string, clientId: string, msg: InputMsg): boolean };
  exited(): boolean;
  /** Why a spent budget holds new prompts, or null (docs/usage.md, "Budgets"): this prompt is one. */
  promptsHeld(): string | null;
  /**
   * Whether the agent shows a dialog (its activity is `waiting`): the prompt and its Enter would
   * answer it (Codex's "Approaching rate limits" offers, after a limit, to switch models, and Enter
   * picks the first offer), so it waits until the dialog is gone.
   */
  dialogShown(): boolean;
  /** The delay after a reset, drawn once per limit (0 .. RESUME_DELAY_MAX_MS). */
  delayMs(): number;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
}

export class LimitResume implements Disposable {
  private readonly timer = new MutableDisposable();
  /** What the current plan was made from: a record that says the same needs no new plan. */
  private planned = '';
  /** The delay drawn for the limit that resets at `resetAt`. */
  private delay: { resetAt: string; ms: number } | null = null;
  /** Whether the log already says a dialog holds the prompt (said once per hold, not every look). */
  private heldByDialog = false;

  constructor(private readonly d: LimitResumeDeps) {}

  /** The record may have changed (a limit seen or over, the setting turned on or off): plan again if so. */
  refresh(): void {
    const r = this.d.record();
    const key = JSON.stringify([r.limited?.resetAt, r.limited?.since, r.resumeAfterLimit, r.limitResumes?.length ?? 0]);
    if (key === this.planned) return;
    this.planned = key;
    this.plan();
  }

  private plan(): void {
    const { d } = this;
    this.timer.clear();
    const r = d.record();
    const now = d.clock.now();
    const resetAt = r.limited?.resetAt;
    if (!r.resumeAfterLimit || !r.limited || !resetAt) return;
    // Typed by an earlier runner that died before it kept the try: keep it now, never type it again.
    const id = resumeCommandId({ resetAt, since: r.limited.since });
    if (d.prompts.status(id) !== undefined && !triedAfter(r.limited, r.limitResumes)) {
      d.log(`resume-after-limit: ${id} is in the journal already (${d.prompts.status(id)}): not typed again`);
      d.addTry({ at: isoTime(now), resetAt, commandId: id });
      return;
    }
    if (this.delay?.resetAt !== resetAt) this.delay = { resetAt, ms: d.delayMs() };
    const p = resumePlan(r, now, this.delay.ms);
    if (p.kind === 'none') return;
    if (p.kind === 'spent') d.log(`resume-after-limit: every try of the day is spent; next look ${isoTime(p.at)}`);
    this.timer.value = d.scheduler.setTimeout(() => this.due(), Math.max(0, p.at - now));
  }

  private due(): void {
    const { d } = this;
    this.timer.clear();
    const r = d.record();
    const now = d.clock.now();
    const p = resumePlan(r, now, this.delay?.ms ?? 0);
    if (p.kind !== 'type' || d.exited()) return;
    if (p.at > now) return this.plan();
    // A spent budget holds this prompt as it holds `send`'s: not typed, and no try spent on it.
    const held = d.promptsHeld();
    if (held !== null) {
      d.log(`resume-after-limit: held (${held}); looked at again in ${BUDGET_RETRY_MS / 1000} s`);
      this.timer.value = d.scheduler.setTimeout(() => this.due(), BUDGET_RETRY_MS);
      return;
    }
    if (d.dialogShown()) {
      if (!this.heldByDialog) d.log(`resume-after-limit: held: the agent shows a dialog, which the prompt would answer; typed once it is gone`);
      this.heldByDialog = true;
      this.timer.value = d.scheduler.setTimeout(() => this.due(), DIALOG_RETRY_MS);
      return;
    }
    this.heldByDialog = false;
    const msg: InputMsg = { type: 'input', data: p.prompt, durable: true, submit: true, whenIdle: true };
    if (d.prompts.status(p.commandId) !== undefined || !d.prompts.accept(p.commandId, RESUME_CLIENT_ID, msg)) {
      if (d.prompts.status(p.commandId) !== undefined) return this.plan(); // journaled meanwhile: plan() keeps it as a try
      d.log(`resume-after-limit: the journal refused ${p.commandId}; tried again in ${JOURNAL_RETRY_MS / 1000} s`);
      this.timer.value = d.scheduler.setTimeout(() => this.due(), JOURNAL_RETRY_MS);
      return;
    }
    d.log(`resume-after-limit: typing ${JSON.stringify(p.prompt)} (${p.commandId}) once the program is quiet`);
    d.addTry({ at: isoTime(now), resetAt: r.limited!.resetAt!, commandId: p.commandId });
  }

  dispose(): void {
    this.timer.dispose();
  }
}
