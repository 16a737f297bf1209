import type { Activity, ActivityReading, ActivitySource } from '../../core/agents/activity.js';
import { decideActivity, OVERRULE_AFTER_MS, type Decision } from '../../core/agents/activity-layers.js';
import type { Clock, Scheduler } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Event } from '../../core/lifetime.js';
import type { KindRegistry, ResolvedKind } from '../../core/agents/kind-rules.js';
import { kindOfCommand } from '../../core/agents/program-kind.js';
import { matchScreen, matchTitle } from '../../core/agents/status-detectors.js';
import type { StatusExplanation } from '../../core/agents/status-explain.js';
import type { ForegroundProgram } from './foreground.js';
import { explainTracker, type TrackedReading } from './activity-explain.js';

/** After output, the title and screen are read this much later (once per burst, not per chunk). */
export const SCREEN_CHECK_MS = 250;
/** Bytes-only kinds (a shell) are idle after this long without output. */
export const BYTES_IDLE_MS = 2000;
/**
 * Before a kind's title or screen has said anything, its bytes need this much
 * quiet to say idle: pi is silent for seconds while it starts (it looks for
 * its tools), and a prompt sent to it then is typed before its editor exists.
 */
export const STARTUP_QUIET_MS = 10_000;

export interface ActivityView {
  title(): string;
  screenLines(): string[];
  /** Runs `fn` once the screen has taken in the output so far (the runner's model may lag behind a burst); at once without it. */
  whenCurrent?(fn: () => void): void;
}


export interface TrackerDeps {
  /** The session's own kind. */
  kind: ResolvedKind;
  /** Every kind, to recognise a shell session's foreground agent. */
  kinds: KindRegistry;
  view: ActivityView;
  clock: Clock;
  scheduler: Scheduler;
  /** Whether the kind's hooks are wired into the program (null: they are not, and why). */
  hooks: { wired: true } | { wired: false; note?: string };
  /** The PTY's foreground program when it is not the session's own (shell sessions ask it on every check). */
  foreground?: () => ForegroundProgram | null;
}

/**
 * One session's activity: readings from each layer its kind has, decided by
 * the one rule (src/core/agents/activity-layers.ts) at every change. Readings of one
 * check share one time stamp. In a shell session the kind whose rules apply
 * follows the PTY's foreground program: `claude` typed at the prompt turns
 * the session's rules into Claude's until it exits.
 */
export class ActivityTracker {
  private readonly readings = new Map<ActivitySource, TrackedReading>();
  private current: Decision | null = null;
  private currentSince: number | null = null;
  private readonly store = new DisposableStore();
  private readonly checkTimer = this.store.add(new MutableDisposable());
  private readonly bytesTimer = this.store.add(new MutableDisposable());
  private lastByteAt = 0;
  private stopped = false;
  private recheck = false;
  private effective: ResolvedKind;
  private fg: ForegroundProgram | null = null;
  private lastHook: { event: string; at: number } | null = null;
  /** Whether the title or the screen has said something since the kind last changed. */
  private betterSpoke = false;
  /** When a layer other than the hook last turned busy: a turn the hooks should have told of. */
  private busyWithoutHookAt: number | null = null;
  private readonly changed = this.store.add(new Emitter<Decision>());
  private readonly kindChanged = this.store.add(new Emitter<{ kind: ResolvedKind; foreground: ForegroundProgram | null }>());

  /** Every change of the decided activity. */
  readonly onChange: Event<Decision> = this.changed.event;
  /** The kind whose rules apply changed (a shell session's foreground agent came or went). */
  readonly onKindChange = this.kindChanged.event;

  constructor(private readonly d: TrackerDeps) {
    this.effective = d.kind;
  }

  /** A program that prints nothing at all is idle by its bytes after a while, not "starting" forever. */
  start(): void {
    if (this.has('bytes')) this.armBytesIdle(BYTES_IDLE_MS);
  }

  get activity(): ActivityReading | null {
    return this.current?.reading ?? null;
  }

  get decision(): Decision | null {
    return this.current;
  }

  /** The kind whose rules apply now. */
  get effectiveKind(): ResolvedKind {
    return this.effective;
  }

  /** The agent's own hook; returns false when the kind does not know the event. */
  hook(event: string): boolean {
    const meaning = this.d.kind.hookEvents[event];
    if (!meaning) return false;
    const now = this.d.clock.now();
    this.lastHook = { event, at: now };
    if (meaning !== 'session') this.set('hook', meaning, now, { evidence: event });
    return true;
  }

  /** The program printed: bytes speak now, title and screen a moment later. */
  output(): void {
    if (this.stopped) return;
    // The output path: no timer work per chunk, only a time stamp; the one timer looks again when due.
    this.lastByteAt = this.d.clock.now();
    if (this.has('bytes')) {
      this.set('bytes', 'busy', this.lastByteAt);
      if (!this.bytesTimer.value) this.armBytesIdle(BYTES_IDLE_MS);
    }
    if (this.checkTimer.value) {
      this.recheck = true; // output after the check was scheduled: look once more after it
      return;
    }
    this.scheduleCheck();
  }

  /**
   * The program set another title, and the model has taken in the output that did: the title
   * layer reads it at once, not at the next check (SCREEN_CHECK_MS after the output). A turn's
   * start is its spinner in the title: the row must not say idle under a line that says the
   * agent is working (the last line goes to the board within a frame).
   */
  titleChanged(): void {
    if (this.stopped || !this.has('title')) return;
    const now = this.d.clock.now();
    const m = matchTitle(this.effective.detectors, this.d.view.title());
    if (!this.put('title', m?.activity ?? null, now, m ? { rule: { name: m.pattern.name, file: m.pattern.file ?? '' }, evidence: m.evidence } : {})) return;
    // An idle title over a dialog: the screen check after this output says which is news (a dialog
    // still there, or one erased as it was answered), so the row does not flash idle meanwhile.
    if (m?.activity === 'idle' && this.readings.get('screen')?.activity === 'waiting') {
      if (!this.checkTimer.value) this.scheduleCheck();
      return;
    }
    this.decide(now);
  }

  /** The session ended: no more timers, no more events. */
  dispose(): void {
    this.stopped = true;
    this.store.dispose();
  }

  /** Why the session shows what it shows (`agent-board explain`). */
  explain(): StatusExplanation {
    return explainTracker({
      kind: this.d.kind,
      effective: this.effective,
      foreground: this.fg,
      decision: this.current,
      since: this.currentSince,
      readings: this.readings,
      sources: this.sources(),
      hooks: this.d.hooks,
      lastHook: this.lastHook,
      hooksSilent: this.hooksSilent(),
      ruleFiles: this.d.kinds.files,
      ruleErrors: this.d.kinds.errors,
    });
  }

  /** A turn began on another layer's word and no hook has come since, past the grace a hook gets. */
  private hooksSilent(): boolean {
    if (!this.d.hooks.wired || this.effective !== this.d.kind || this.busyWithoutHookAt === null) return false;
    if (this.lastHook && this.lastHook.at >= this.busyWithoutHookAt) return false;
    return this.d.clock.now() - this.busyWithoutHookAt > OVERRULE_AFTER_MS;
  }

  private scheduleCheck(): void {
    const run = () => {
      this.checkTimer.clear();
      this.check();
      if (this.recheck && !this.stopped) {
        this.recheck = false;
        this.scheduleCheck();
      }
    };
    // The check stays pending (output meanwhile asks for one more) until the screen has the output that led here.
    this.checkTimer.value = this.d.scheduler.setTimeout(() => (this.d.view.whenCurrent ? this.d.view.whenCurrent(run) : run()), SCREEN_CHECK_MS);
  }

  private armBytesIdle(ms: number): void {
    this.bytesTimer.value = this.d.scheduler.setTimeout(() => {
      this.bytesTimer.clear();
      const quiet = this.d.clock.now() - this.lastByteAt;
      const need = this.quietNeeded();
      if (quiet >= need) this.set('bytes', 'idle', this.d.clock.now());
      else this.armBytesIdle(need - quiet);
    }, ms);
  }

  /** How much quiet makes the bytes say idle. */
  private quietNeeded(): number {
    return this.betterSpoke || !(this.has('title') || this.has('screen')) ? BYTES_IDLE_MS : STARTUP_QUIET_MS;
  }

  /** One look at the title and the screen, with one time stamp for both. */
  private check(): void {
    if (this.stopped) return;
    const now = this.d.clock.now();
    const kindChanged = this.followForeground(now);
    const det = this.effective.detectors;
    // A layer that says nothing drops its reading: an old "busy" must not outlive its footer.
    const changed: boolean[] = [];
    if (this.has('title')) {
      const m = matchTitle(det, this.d.view.title());
      changed.push(this.put('title', m?.activity ?? null, now, m ? { rule: { name: m.pattern.name, file: m.pattern.file ?? '' }, evidence: m.evidence } : {}));
    }
    let dialog = false;
    if (this.has('screen')) {
      const m = matchScreen(det, this.d.view.screenLines());
      changed.push(this.put('screen', m?.activity ?? null, now, m ? { rule: { name: m.pattern.name, file: m.pattern.file ?? '' }, evidence: m.evidence } : {}));
      // Still saying so now: a dialog that outlasts the title's change is not a stale frame (activity-layers.ts, dialog-wins).
      const kept = this.readings.get('screen');
      if (kept) this.readings.set('screen', { ...kept, seen: now });
      dialog = kept?.activity === 'waiting';
    }
    if (kindChanged || dialog || changed.some(Boolean)) this.decide(now);
  }

  /** A shell session follows its foreground program's kind; true when the kind changed. */
  private followForeground(now: number): boolean {
    if (!this.d.foreground || this.d.kind.name !== 'shell') return false;
    const fg = this.d.foreground();
    const name = fg ? kindOfCommand(this.d.kinds.kinds.values(), fg.argv, [fg.exe, fg.script].filter((p): p is string => p !== null)) : null;
    const next = name && name !== 'shell' ? this.d.kinds.kinds.get(name)! : this.d.kind;
    this.fg = next === this.d.kind ? null : fg;
    if (next === this.effective) return false;
    this.effective = next;
    this.betterSpoke = false;
    // The old kind's readings mean nothing under the new kind's rules.
    for (const s of ['title', 'screen', 'bytes'] as const) if (!this.has(s)) this.readings.delete(s);
    if (this.has('bytes') && !this.readings.has('bytes')) {
      // Bytes speak from the last output on: busy while it is recent, idle after the quiet.
      const left = this.quietNeeded() - (now - this.lastByteAt);
      this.put('bytes', left <= 0 ? 'idle' : 'busy', now);
      if (left > 0 && !this.bytesTimer.value) this.armBytesIdle(left);
    }
    this.kindChanged.fire({ kind: next, foreground: this.fg });
    return true;
  }

  /** The layers in use: the effective kind's, without hooks for a program started by hand. */
  private sources(): readonly ActivitySource[] {
    const own = this.effective === this.d.kind;
    return this.effective.statusSources.filter((s) => (s === 'hook' ? own && this.d.hooks.wired : true));
  }

  private has(source: ActivitySource): boolean {
    return this.sources().includes(source);
  }

  /** Records a layer's reading; true when it changed. */
  private put(source: ActivitySource, activity: Activity | null, at: number, extra: Omit<TrackedReading, keyof ActivityReading> = {}): boolean {
    const prev = this.readings.get(source);
    if ((prev?.activity ?? null) === activity) {
      if (prev && extra.rule) this.readings.set(source, { ...prev, ...extra }); // same word, maybe another pattern: keep its time
      return false;
    }
    if (activity === null) this.readings.delete(source);
    else this.readings.set(source, { source, activity, at, ...extra });
    if (activity !== null && (source === 'title' || source === 'screen')) this.betterSpoke = true;
    if (activity === 'busy' && source !== 'hook') this.busyWithoutHookAt = at;
    return true;
  }

  private set(source: ActivitySource, activity: Activity | null, at: number, extra: Omit<TrackedReading, keyof ActivityReading> = {}): void {
    if (this.stopped) return;
    // A hook is news even when it says what it said before: it holds from now.
    if (source === 'hook' && activity !== null) {
      this.readings.set('hook', { source, activity, at, ...extra });
      this.decide(at);
      return;
    }
    if (this.put(source, activity, at, extra)) this.decide(at);
  }

  private decide(now: number): void {
    const next = decideActivity([...this.readings.values()].filter((r) => this.has(r.source)));
    if (!next) return;
    const was = this.current;
    this.current = next;
    if (next.reading.activity !== was?.reading.activity || next.reading.source !== was?.reading.source) {
      if (next.reading.activity !== was?.reading.activity) this.currentSince = now;
      this.changed.fire(next);
    }
  }
}
