/**
 * When to type a wake into a session: a mention in the chat wakes the agent by typing a short
 * prompt into its PTY, but only when that cannot barge into a turn, and never in a storm
 * (docs/wakes.md has the whole policy and its guarantees).
 *
 * - Idle-gap delivery is the preferred path: the session printed nothing for idleThresholdMs.
 * - After we typed into the session (a wake or a prompt), for activeSuppressionMs only a genuine
 *   idle gap may deliver; nothing preempts that window.
 * - Agent kinds whose idle screen repaints forever (Claude) would starve the idle gap, so they
 *   alone get a hard cap: a wake waits at most hardCapMs, re-armed for what remains of the
 *   suppression window and of the cooldown after the last cap delivery: deferred, never dropped.
 * - The idle timer, the cap timer and the output listener are one lifetime per wait (a cycle's
 *   DisposableStore): created together, released together on idle drain, cap drain, dispose and
 *   exit; a timer of an old cycle never touches a new one.
 * - The session is checked to be running with a live PTY right before anything is typed; the
 *   delayed Enter has an owner and dies with dispose.
 *
 * Pure: time and timers come in through Clock and Scheduler (tests run at millisecond scale on
 * fake ones), the session through WakeTerm.
 */
import type { Clock, Scheduler } from '../clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../lifetime.js';

export interface WakeTimings {
  /** No output for this long means idle. */
  idleThresholdMs: number;
  /** Mentions arriving within this window become one wake. */
  coalesceMs: number;
  /** After we typed into the session, only a genuine idle gap may deliver for this long. */
  activeSuppressionMs: number;
  /** Repaint-starved kinds only: the longest a pending wake waits for an idle gap. */
  hardCapMs: number;
  /** After a cap delivery, the next cap delivery waits at least this long. */
  capCooldownMs: number;
  /** Enter follows the wake text after max(this, text length) ms. */
  submitMinDelayMs: number;
}

export const DEFAULT_WAKE_TIMINGS: Readonly<WakeTimings> = Object.freeze({
  idleThresholdMs: 5000,
  coalesceMs: 1000,
  activeSuppressionMs: 30_000,
  hardCapMs: 10_000,
  capCooldownMs: 30_000,
  submitMinDelayMs: 300,
});


/** The session, as the dispatcher sees it. */
export interface WakeTerm {
  /** Running, with a live PTY. */
  isRunning(): boolean;
  /** When it last printed (clock ms; -Infinity if never). */
  lastOutputAt(): number;
  onData(fn: () => void): Disposable;
  write(data: string): void;
  /**
   * What a trusted source (the agent's hooks, title or screen; not raw bytes)
   * says it is doing, or null when none has spoken. Idle delivers at once;
   * busy waits however quiet the bytes; waiting (a dialog, a permission
   * question) is never typed into, not even by the cap.
   */
  trustedActivity?(): 'starting' | 'busy' | 'idle' | 'waiting' | null;
}

export interface WakeDeps {
  clock: Clock;
  scheduler: Scheduler;
  term: WakeTerm;
  timings: WakeTimings;
  /** The agent kind's repaint never stops (Claude): it gets the hard cap. Whether the session's kind (its foreground agent's, in a shell session) is repaint-starved, asked when a wake waits. */
  capEligible: boolean | (() => boolean);
  /** The room's loop guard: no wakes while it holds. */
  isPaused(): boolean;
  /** The one-line prompt for the mentions pending (their chat ids, oldest first). */
  wakeText(mentionIds: readonly number[]): string;
}

export type WakeEvent =
  | { type: 'queued'; reason: 'busy' | 'recently_sent'; cycle: number }
  | { type: 'delivered'; via: 'direct' | 'idle' | 'cap'; mentionIds: number[] }
  | { type: 'held'; reason: 'paused' | 'not_running' | 'waiting_for_user' }
  | { type: 'rearmed'; reason: 'suppression' | 'cooldown'; inMs: number };

/** One wait for a moment to type: its timers and its output listener live and die together. */
interface Cycle {
  id: number;
  idleTimer: MutableDisposable;
  capTimer: MutableDisposable;
  resources: DisposableStore;
}

export class WakeDispatcher implements Disposable {
  private readonly store = new DisposableStore();
  private readonly events = this.store.add(new Emitter<WakeEvent>());
  /** Every decision, for the runner log and tests. */
  readonly onEvent: Event<WakeEvent> = this.events.event;
  private pending: number[] = [];
  private readonly coalesceTimer = this.store.add(new MutableDisposable());
  private cycle: Cycle | null = null;
  private cycles = 0;
  private readonly submitTimer = this.store.add(new MutableDisposable());
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private lastCapAt = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(private readonly d: WakeDeps) {}

  /** A chat message mentioned this session. */
  mention(messageId: number): void {
    if (this.stopped) return;
    if (!this.pending.includes(messageId)) this.pending.push(messageId);
    if (this.cycle || this.coalesceTimer.value) return; // joins the wake already on its way
    this.coalesceTimer.value = this.d.scheduler.setTimeout(() => {
      this.coalesceTimer.clear();
      this.dispatch();
    }, this.d.timings.coalesceMs);
  }

  /** Something was typed into the session on purpose (a prompt by `send`): the suppression window starts. */
  noteSent(): void {
    this.lastSentAt = this.d.clock.now();
  }

  /** A trusted source changed its reading: a waiting wake goes in the moment it says idle. */
  activityChanged(): void {
    if (this.stopped || !this.cycle || this.trusted() !== 'idle') return;
    this.drain('idle');
  }

  /** The loop guard lifted: a wake held back goes on its way. */
  resume(): void {
    if (this.stopped || this.pending.length === 0 || this.cycle || this.coalesceTimer.value) return;
    this.dispatch();
  }

  /** The session ended or the runner stops: nothing of ours fires after this. */
  dispose(): void {
    this.stopped = true;
    this.pending = [];
    this.endCycle();
    this.store.dispose();
  }

  /** For tests and the log: what is alive right now. */
  get state() {
    return {
      pending: [...this.pending],
      cycle: this.cycle?.id ?? null,
      idleTimer: this.cycle?.idleTimer.value !== undefined,
      capTimer: this.cycle?.capTimer.value !== undefined,
      listener: this.cycle !== null,
      coalesceTimer: this.coalesceTimer.value !== undefined,
      submitTimer: this.submitTimer.value !== undefined,
    };
  }

  private dispatch(): void {
    if (this.pending.length === 0) return;
    if (this.d.isPaused()) return this.emit({ type: 'held', reason: 'paused' });
    const now = this.d.clock.now();
    const t = this.d.timings;
    const trusted = this.trusted();
    if (trusted === 'idle') return this.deliver('direct'); // genuinely idle: no byte gap to wait out
    if (trusted === 'busy' || trusted === 'waiting') return this.startCycle('busy');
    if (now - this.d.term.lastOutputAt() < t.idleThresholdMs) return this.startCycle('busy');
    if (now - this.lastSentAt < t.activeSuppressionMs) return this.startCycle('recently_sent');
    this.deliver('direct');
  }

  private startCycle(reason: 'busy' | 'recently_sent'): void {
    const id = ++this.cycles;
    const resources = new DisposableStore();
    const cycle: Cycle = { id, idleTimer: resources.add(new MutableDisposable()), capTimer: resources.add(new MutableDisposable()), resources };
    this.cycle = cycle;
    // Output pushes the idle gap out; only a timer of this cycle may act on it.
    resources.add(
      this.d.term.onData(() => {
        if (this.cycle === cycle) this.armIdle(cycle);
      }),
    );
    this.armIdle(cycle);
    const cap = typeof this.d.capEligible === 'function' ? this.d.capEligible() : this.d.capEligible;
    if (cap) this.armCap(cycle, this.d.timings.hardCapMs);
    this.emit({ type: 'queued', reason, cycle: id });
  }

  private armIdle(cycle: Cycle, minWait = 0): void {
    const quiet = this.d.clock.now() - this.d.term.lastOutputAt();
    const wait = Math.max(minWait, this.d.timings.idleThresholdMs - quiet);
    cycle.idleTimer.value = this.d.scheduler.setTimeout(() => {
      if (this.cycle !== cycle) return; // a stale cycle's timer
      cycle.idleTimer.clear();
      // Quiet bytes do not overrule a trusted busy (thinking without output) or a dialog.
      const trusted = this.trusted();
      if (trusted === 'busy' || trusted === 'waiting') return this.armIdle(cycle, this.d.timings.idleThresholdMs);
      this.drain('idle');
    }, wait);
  }

  private armCap(cycle: Cycle, ms: number): void {
    cycle.capTimer.value = this.d.scheduler.setTimeout(() => {
      if (this.cycle !== cycle) return;
      cycle.capTimer.clear();
      const now = this.d.clock.now();
      const t = this.d.timings;
      // Never inside the suppression window, never inside the cooldown: re-arm for what remains.
      const suppressedFor = this.lastSentAt + t.activeSuppressionMs - now;
      if (suppressedFor > 0) {
        this.emit({ type: 'rearmed', reason: 'suppression', inMs: suppressedFor });
        return this.armCap(cycle, suppressedFor);
      }
      if (this.trusted() === 'waiting') {
        // A dialog is up: typing would answer it. Look again after another cap period.
        this.emit({ type: 'held', reason: 'waiting_for_user' });
        return this.armCap(cycle, t.hardCapMs);
      }
      const coolingFor = this.lastCapAt + t.capCooldownMs - now;
      if (coolingFor > 0) {
        this.emit({ type: 'rearmed', reason: 'cooldown', inMs: coolingFor });
        return this.armCap(cycle, coolingFor);
      }
      this.drain('cap');
    }, ms);
  }

  private drain(via: 'idle' | 'cap'): void {
    this.endCycle();
    if (this.d.isPaused()) return this.emit({ type: 'held', reason: 'paused' });
    this.deliver(via);
  }

  private endCycle(): void {
    const c = this.cycle;
    if (!c) return;
    this.cycle = null;
    c.resources.dispose();
  }

  private deliver(via: 'direct' | 'idle' | 'cap'): void {
    // The session may have ended while we waited; then nothing is typed.
    if (!this.d.term.isRunning()) {
      this.pending = [];
      return this.emit({ type: 'held', reason: 'not_running' });
    }
    const ids = this.pending;
    this.pending = [];
    const text = this.d.wakeText(ids);
    this.d.term.write(text);
    const now = this.d.clock.now();
    this.lastSentAt = now;
    if (via === 'cap') this.lastCapAt = now;
    this.emit({ type: 'delivered', via, mentionIds: ids });
    this.submitTimer.value = this.d.scheduler.setTimeout(() => {
      this.submitTimer.clear();
      if (!this.stopped && this.d.term.isRunning()) this.d.term.write('\r');
    }, Math.max(this.d.timings.submitMinDelayMs, text.length));
  }

  private trusted(): 'starting' | 'busy' | 'idle' | 'waiting' | null {
    return this.d.term.trustedActivity?.() ?? null;
  }

  private emit(e: WakeEvent): void {
    this.events.fire(e);
  }
}
