/**
 * Waiting for a process to be gone when nothing tells us (it is not our child, so no exit event
 * comes): a poll on the scheduler. Each look is one kill(pid, 0) and a read of /proc (alive.ts),
 * or whatever `alive` the caller gives (a runner known by its identity, not its pid alone).
 */
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, type Disposable } from '../../core/lifetime.js';

/**
 * How often a wait looks whether the process is gone. A look costs a system call or two; at
 * 20 ms a user waiting on `rm --force` or `restart` sees the end within a frame of it, and a
 * 4 s grace is 200 looks.
 */
export const GONE_POLL_MS = 20;

export interface GoneWatch {
  scheduler: Scheduler;
  /** Between looks (GONE_POLL_MS unless given). */
  pollMs?: number;
}

/**
 * Calls `gone` once, as soon as `alive()` says no: at once when it already does, else at the
 * first poll that sees it. Disposing stops the polling; `gone` is not called after that.
 */
export function watchGone(alive: () => boolean, gone: () => void, w: GoneWatch): Disposable {
  const watching = new DisposableStore();
  if (!alive()) {
    gone();
    return watching;
  }
  watching.add(
    w.scheduler.setInterval(() => {
      if (alive()) return;
      watching.dispose();
      gone();
    }, w.pollMs ?? GONE_POLL_MS),
  );
  return watching;
}

/** Resolves true once `alive()` says no, or false when it still says yes `timeoutMs` from now. */
export function waitGone(alive: () => boolean, timeoutMs: number, w: GoneWatch): Promise<boolean> {
  return new Promise((resolve) => {
    const waiting = new DisposableStore();
    const done = (gone: boolean) => {
      waiting.dispose();
      resolve(gone);
    };
    waiting.add(w.scheduler.setTimeout(() => done(!alive()), timeoutMs));
    waiting.add(watchGone(alive, () => done(true), w));
  });
}
