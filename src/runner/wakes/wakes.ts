import type { Clock, Scheduler } from '../../core/clock.js';
import { LOOP_START, mentionsReader, roomOf, stepLoopGuard, type ChatRecord, type LoopState } from '../../core/chat/chat.js';
import { DEFAULT_WAKE_TIMINGS, WakeDispatcher, type WakeTimings } from '../../core/chat/wake-dispatcher.js';
import { DisposableStore, MutableDisposable, type Disposable } from '../../core/lifetime.js';
import { wakeText } from '../../core/chat/wake-text.js';
import { chatFile } from '../../state/paths.js';
import { ensureRoomDir, roomMaxHops } from '../../state/rooms.js';
import { ChatWatch } from './chat-watch.js';
import type { Logger } from '../log.js';

/** What the wakes need from the session. */
export interface WakeSession {
  name(): string;
  room: string;
  agent: string;
  /** The kind whose rules apply now repaints without end (Claude): a waiting wake gets the hard cap. */
  repaintStarved(): boolean;
  isRunning(): boolean;
  lastOutputAt(): number;
  onData(fn: () => void): Disposable;
  write(data: string): void;
  /** The activity from a trusted source (hook, title, screen), or null. */
  trustedActivity(): 'starting' | 'busy' | 'idle' | 'waiting' | null;
  /** Why new prompts are held now (a spent budget), or null: a wake is a prompt too, held, not dropped. */
  promptsHeld?(): string | null;
}

/**
 * While a spent budget holds a wake, how often the runner asks again whether it still does (the
 * budget raised in config.json, a new day): reading config.json and the records costs a few
 * milliseconds, and only a runner holding a wake pays it.
 */
export const BUDGET_RECHECK_MS = 5000;

/** Each timing may be set for a runner through its environment, e.g. AGENT_BOARD_WAKE_CAP_MS=3000. */
const TIMING_ENV: Record<keyof WakeTimings, string> = {
  idleThresholdMs: 'AGENT_BOARD_WAKE_IDLE_MS',
  coalesceMs: 'AGENT_BOARD_WAKE_COALESCE_MS',
  activeSuppressionMs: 'AGENT_BOARD_WAKE_SUPPRESS_MS',
  hardCapMs: 'AGENT_BOARD_WAKE_CAP_MS',
  capCooldownMs: 'AGENT_BOARD_WAKE_COOLDOWN_MS',
  submitMinDelayMs: 'AGENT_BOARD_WAKE_SUBMIT_MS',
};

export function wakeTimingsFrom(env: NodeJS.ProcessEnv): WakeTimings {
  const t = { ...DEFAULT_WAKE_TIMINGS };
  for (const [key, name] of Object.entries(TIMING_ENV) as Array<[keyof WakeTimings, string]>) {
    const v = Number(env[name]);
    if (env[name] !== undefined && Number.isFinite(v) && v >= 0) t[key] = v;
  }
  return t;
}

/**
 * The wake dispatcher of one runner, wired: the room's chat is followed, a
 * message that mentions this session (or @all) from someone else becomes a
 * mention, and the room's loop guard, folded over the whole chat, holds
 * wakes while it is paused. Only messages after the runner started count.
 */
export interface RunnerWakesDeps {
  home: string;
  session: WakeSession;
  log: Logger;
  clock: Clock;
  scheduler: Scheduler;
  timings?: WakeTimings;
  cli?: string;
  /** How often a wake held by a spent budget asks again (default BUDGET_RECHECK_MS; tests: AGENT_BOARD_BUDGET_RECHECK_MS). */
  budgetRecheckMs?: number;
}

export class RunnerWakes implements Disposable {
  readonly dispatcher: WakeDispatcher;
  readonly timings: WakeTimings;
  private readonly watch: ChatWatch;
  private guard: LoopState = LOOP_START;
  private readonly store = new DisposableStore();
  private readonly home: string;
  private readonly s: WakeSession;
  private readonly log: Logger;
  private readonly scheduler: Scheduler;
  private readonly recheckMs: number;
  /** The next look at a spent budget while it holds a wake. */
  private readonly budgetRecheck = this.store.add(new MutableDisposable());
  /** The line the log last gave for a held wake, so a wake held for hours logs once. */
  private heldLine: string | null = null;

  constructor(d: RunnerWakesDeps) {
    const { home, session: s, log } = d;
    this.home = home;
    this.s = s;
    this.log = log;
    this.scheduler = d.scheduler;
    this.recheckMs = d.budgetRecheckMs ?? BUDGET_RECHECK_MS;
    const timings = (this.timings = d.timings ?? wakeTimingsFrom(process.env));
    const cli = d.cli ?? 'agent-board';
    const room = roomOf({ room: s.room });
    this.dispatcher = this.store.add(new WakeDispatcher({
      clock: d.clock,
      scheduler: d.scheduler,
      term: {
        isRunning: () => s.isRunning(),
        lastOutputAt: () => s.lastOutputAt(),
        onData: (fn) => s.onData(fn),
        write: (d) => s.write(d),
        trustedActivity: () => s.trustedActivity(),
      },
      timings,
      capEligible: () => s.repaintStarved(),
      isPaused: () => this.paused(),
      wakeText: (ids) => wakeText({ name: s.name(), room, mentionIds: ids, cli }),
    }));
    this.store.add(this.dispatcher.onEvent((e) => log(`wake: ${JSON.stringify(e)}`)));
    this.store.add(this.dispatcher.onEvent((e) => e.type === 'held' && e.reason === 'paused' && this.holdForBudget()));
    this.watch = this.store.add(
      new ChatWatch({ file: chatFile(home, room), onRecords: (rs) => this.onRecords(rs), onError: (m) => log(`chat: ${m}`), scheduler: d.scheduler }),
    );
  }

  start(): void {
    try {
      ensureRoomDir(this.home, this.s.room);
    } catch (err) {
      this.log(`chat: cannot use room ${this.s.room}: ${(err as Error).message}; no wakes`);
      return;
    }
    for (const r of this.watch.start()) this.guard = stepLoopGuard(this.guard, r); // history: the guard only
  }

  /** No more wakes: the chat is not followed, pending timers are dropped. */
  dispose(): void {
    this.store.dispose();
  }

  private paused(): boolean {
    return this.guardPaused() || this.s.promptsHeld?.() != null;
  }

  private guardPaused(): boolean {
    return this.guard.paused || this.guard.hops >= roomMaxHops(this.home, this.s.room);
  }

  /** A wake held while the loop guard lets it go is held by the budget: look again until it is not. */
  private holdForBudget(): void {
    if (this.guardPaused() || this.budgetRecheck.value) return;
    const why = this.s.promptsHeld?.() ?? null;
    if (why === null) return;
    if (why !== this.heldLine) this.log(`wake held: ${why}`);
    this.heldLine = why;
    this.budgetRecheck.value = this.scheduler.setTimeout(() => {
      this.budgetRecheck.clear();
      if (this.s.promptsHeld?.() != null) return this.holdForBudget();
      this.heldLine = null;
      this.log('wake: the budget lets it through now');
      this.dispatcher.resume();
    }, this.recheckMs);
  }

  private onRecords(records: ChatRecord[]): void {
    const wasPaused = this.paused();
    const me = this.s.name();
    for (const r of records) {
      this.guard = stepLoopGuard(this.guard, r);
      if (r.kind !== 'system' && mentionsReader(r, me)) this.dispatcher.mention(r.id);
    }
    if (wasPaused && !this.paused()) this.dispatcher.resume();
  }
}
