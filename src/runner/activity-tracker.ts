import type { Activity, ActivitySource } from '../core/activity.js';
import { layerActivity, type SourceReading } from '../core/activity-layers.js';
import type { AgentKind } from '../core/agent-kinds.js';
import { activityFromScreen, activityFromTitle } from '../core/status-detectors.js';

/** After output, the title and screen are read this much later (once per burst, not per chunk). */
export const SCREEN_CHECK_MS = 250;
/** Bytes-only kinds (a shell) are idle after this long without output. */
export const BYTES_IDLE_MS = 2000;

export interface ActivityView {
  title(): string;
  screenLines(): string[];
}

/**
 * One session's activity: readings from each of its kind's sources, layered
 * (src/core/activity-layers.ts); `onChange` hears every change of the result.
 */
export class ActivityTracker {
  private readonly readings = new Map<ActivitySource, SourceReading>();
  private current: SourceReading | null = null;
  private checkTimer: NodeJS.Timeout | null = null;
  private bytesTimer: NodeJS.Timeout | null = null;
  private lastByteAt = 0;
  private stopped = false;
  private recheck = false;

  constructor(
    private readonly kind: AgentKind,
    private readonly view: ActivityView,
    private readonly onChange: (r: SourceReading) => void,
  ) {}

  /** A program that prints nothing at all is idle by its bytes after a while, not "starting" forever. */
  start(): void {
    if (this.has('bytes')) this.armBytesIdle(BYTES_IDLE_MS);
  }

  get activity(): SourceReading | null {
    return this.current;
  }

  /** The agent's own hook; returns false when the kind does not know the event. */
  hook(event: string): boolean {
    const meaning = this.kind.hookEvents[event];
    if (!meaning || meaning === 'session') return meaning === 'session';
    this.set('hook', meaning);
    return true;
  }

  /** The program printed: bytes speak now, title and screen a moment later. */
  output(): void {
    if (this.stopped) return;
    if (this.has('bytes')) {
      // The output path: no timer work per chunk, only a time stamp; the one timer looks again when due.
      this.lastByteAt = Date.now();
      this.set('bytes', 'busy');
      if (!this.bytesTimer) this.armBytesIdle(BYTES_IDLE_MS);
    }
    if (this.checkTimer) {
      this.recheck = true; // output after the check was scheduled: look once more after it
      return;
    }
    this.scheduleCheck();
  }

  private scheduleCheck(): void {
    this.checkTimer = setTimeout(() => {
      this.checkTimer = null;
      this.check();
      if (this.recheck && !this.stopped) {
        this.recheck = false;
        this.scheduleCheck();
      }
    }, SCREEN_CHECK_MS);
  }

  stop(): void {
    this.stopped = true;
    if (this.checkTimer) clearTimeout(this.checkTimer);
    if (this.bytesTimer) clearTimeout(this.bytesTimer);
  }

  private armBytesIdle(ms: number): void {
    this.bytesTimer = setTimeout(() => {
      this.bytesTimer = null;
      const quiet = Date.now() - this.lastByteAt;
      if (quiet >= BYTES_IDLE_MS) this.set('bytes', 'idle');
      else this.armBytesIdle(BYTES_IDLE_MS - quiet);
    }, ms);
  }

  private check(): void {
    // A detector that says nothing drops its reading: an old "busy" must not outlive its footer.
    if (this.has('title')) this.set('title', activityFromTitle(this.kind.name, this.view.title()));
    if (this.has('screen')) this.set('screen', activityFromScreen(this.kind.name, this.view.screenLines()));
  }

  private has(source: ActivitySource): boolean {
    return this.kind.statusSources.includes(source);
  }

  private set(source: ActivitySource, activity: Activity | null): void {
    if (this.stopped) return;
    const prev = this.readings.get(source);
    if ((prev?.activity ?? null) === activity) return;
    if (activity === null) this.readings.delete(source);
    else this.readings.set(source, { source, activity, changedAt: Date.now() });
    const next = layerActivity([...this.readings.values()]);
    if (next && (next.activity !== this.current?.activity || next.source !== this.current?.source)) {
      this.current = next;
      this.onChange(next);
    }
  }
}
