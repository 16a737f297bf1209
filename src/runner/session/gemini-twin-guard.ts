/**
 * A Gemini session's conversation kept safe from Gemini's own start-up cleanup
 * (src/core/agents/gemini-twins.ts, docs/agents.md): each start of Gemini with `--resume` or
 * `--session-file` leaves an empty twin of the conversation, and the next Gemini start in the same
 * project deletes the conversation with it. The runner removes the twin as soon as Gemini has moved
 * on to the real file, and gives a first turn written without its metadata line (its start-up file
 * deleted by another Gemini's start) that line back. It looks often at first, at each change of the
 * session's activity, and soon after any change in the folders the conversation's files are in.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { DisposableStore, MutableDisposable, type Disposable } from '../../core/lifetime.js';
import type { TwinSweep } from '../../state/usage/gemini-twins.js';

/**
 * How often the folder is looked at while Gemini starts. Another Gemini starting in the same project
 * meanwhile (a revive of several sessions at once) would delete the conversation if it saw the twin,
 * so the sooner the better; a look with no twin there is one readdir.
 */
export const TWIN_SWEEP_MS = 250;
/**
 * How long after the program's start it is looked at that often. Gemini moves on to the resumed file
 * when it loads the conversation, a second or two after its start (more under load); a fork's id may
 * be learned later still (read off the file by `fork` where its hooks are not wired).
 */
export const TWIN_WATCH_MS = 30_000;
/** A change in the folder is looked at this long after it: Gemini writes a turn in several appends, one look for them all. */
export const FOLDER_SETTLE_MS = 20;

export interface TwinGuardDeps {
  /** The session's conversation id now (a fork's is learned after its start) and its folder. */
  record(): { resumeId?: string; cwd: string };
  env: Record<string, string | undefined>;
  /** The activity tracker's changes. */
  onActivity(fn: (activity: string) => void): Disposable;
  sweep(q: { resumeId: string; cwd: string; env: Record<string, string | undefined>; now: number; dirs?: readonly string[] }): TwinSweep;
  /** Calls `fn` at each change in folder `dir` until disposed (src/state/usage/gemini-twins.ts's folders). */
  watch(dir: string, fn: () => void): Disposable;
  log(line: string): void;
  clock: Clock;
  scheduler: Scheduler;
}

export class GeminiTwinGuard implements Disposable {
  private readonly store = new DisposableStore();
  /** The frequent looks of the first TWIN_WATCH_MS. */
  private readonly often = this.store.add(new MutableDisposable());
  private readonly soon = this.store.add(new MutableDisposable());
  /** The folders watched, by path. */
  private readonly watched = new Map<string, Disposable>();
  /** Error lines already logged: a folder that cannot be read is said once. */
  private readonly said = new Set<string>();

  constructor(private readonly d: TwinGuardDeps) {
    // At each activity change, a look everywhere (the conversation may have moved: a /clear, a fork's id learned).
    this.store.add(d.onActivity(() => this.sweep(true)));
  }

  /** Looks now, then every TWIN_SWEEP_MS for TWIN_WATCH_MS. */
  start(): void {
    this.sweep();
    let left = Math.floor(TWIN_WATCH_MS / TWIN_SWEEP_MS);
    this.often.value = this.d.scheduler.setInterval(() => {
      this.sweep();
      if (--left <= 0) this.often.clear();
    }, TWIN_SWEEP_MS);
  }

  /** Looks in the folders already known, or everywhere when none is or `everywhere`. */
  sweep(everywhere = false): void {
    const r = this.d.record();
    if (!r.resumeId) return;
    const known = everywhere || !this.watched.size ? undefined : [...this.watched.keys()];
    const { removed, mended, dirs, errors } = this.d.sweep({ resumeId: r.resumeId, cwd: r.cwd, env: this.d.env, now: this.d.clock.now(), ...(known ? { dirs: known } : {}) });
    for (const file of removed) {
      this.d.log(`gemini: removed ${file}, an empty twin of conversation ${r.resumeId} that Gemini opened at its start: the next Gemini start in this project would have deleted the conversation with it`);
    }
    for (const file of mended) {
      this.d.log(`gemini: gave ${file} back its metadata line (conversation ${r.resumeId}): another Gemini's start had deleted its start-up file, and Gemini could neither list nor resume it`);
    }
    for (const dir of dirs) {
      if (this.watched.has(dir)) continue;
      this.watched.set(dir, this.store.add(this.d.watch(dir, () => this.sweepSoon())));
    }
    for (const e of errors) {
      if (this.said.has(e)) continue;
      this.said.add(e);
      this.d.log(`gemini: ${e}`);
    }
  }

  /** One look FOLDER_SETTLE_MS after a change in a watched folder (a look already due takes the later changes). */
  private sweepSoon(): void {
    if (this.soon.value) return;
    this.soon.value = this.d.scheduler.setTimeout(() => {
      this.soon.clear();
      this.sweep();
    }, FOLDER_SETTLE_MS);
  }

  dispose(): void {
    this.store.dispose();
  }
}
