/**
 * Ending a process, the one way (execa's, in our terms): the polite signals now, the kill
 * signal when the grace is up unless it ended first, and how it ended as data. The kill is a
 * timer on the scheduler it is given, so a test moves it with a fake clock, and disposing the
 * Termination cancels it (the owner stopped caring, or learnt of the end itself).
 */
import type { ChildProcess } from 'node:child_process';
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, toDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import { isGroupAlive, isPidAlive } from './alive.js';
import { childEnded, isChild, sendSignal, type ProcessTarget } from './signal.js';
import { watchGone } from './wait-gone.js';

/**
 * The grace a program we end for our own reasons (a timeout, a link torn down) gets between
 * SIGTERM and SIGKILL: time to remove a lock file or close a connection (git, ssh), which
 * takes milliseconds, and short enough that a wedged one does not hold a command up for
 * long. A session's program gets TERMINATE_GRACE_MS (src/core/session-timings.ts): an agent
 * may have a conversation to save.
 */
export const KILL_GRACE_MS = 2000;

/**
 * After SIGKILL, how long a process may take to be gone before we call it still alive. The
 * kernel ends it at once unless it sits in an uninterruptible wait (a hung network file
 * system, a failing disk), and its parent has yet to see it go (a runner reports its
 * program's exit after the PTY's last read; init reaps a runner, see alive.ts isZombie).
 */
export const KILL_SETTLE_MS = 3000;

export interface TerminateOptions {
  scheduler: Scheduler;
  /** Between the first signals and the kill signal (KILL_GRACE_MS unless given). */
  graceMs?: number;
  /**
   * Sent at once (SIGTERM unless given). None: the caller asked already in its own way (it
   * closed the program's input) and only the kill is left to time.
   */
  signals?: readonly NodeJS.Signals[];
  /** Sent when the grace is up (SIGKILL unless given). */
  killSignal?: NodeJS.Signals;
  /** After the kill signal, how long until it is called still alive (KILL_SETTLE_MS unless given). */
  settleMs?: number;
  /**
   * Fires when the owner learns the process ended, where it knows better than a poll (a PTY's
   * exit). Without it: our child's own exit, or else a poll of the pid or group (wait-gone.ts).
   */
  exited?: Event<unknown>;
  /** The poll's interval, when it polls (GONE_POLL_MS unless given). */
  pollMs?: number;
}

/** How a termination ended. `forced`: only after the kill signal. */
export type Ended =
  /** Our child exited with a code (it handled the signal: a clean shutdown says 0). */
  | { kind: 'exited'; code: number; forced: boolean }
  /** Our child was ended by a signal, the one named. */
  | { kind: 'killed'; signal: string; forced: boolean }
  /** A process we did not start (or whose end the owner told) is gone; how it ended is its parent's to know. */
  | { kind: 'gone'; forced: boolean }
  /** Gone before the first signal: nothing was sent. */
  | { kind: 'already-gone' }
  /** Still there `settleMs` after the kill signal (see KILL_SETTLE_MS). */
  | { kind: 'still-alive' }
  /** A signal was refused (EPERM: another user's process): it is where it was. */
  | { kind: 'refused'; error: NodeJS.ErrnoException }
  /** Disposed before the end: nothing more was sent after that. */
  | { kind: 'cancelled' };

/** A termination under way: `ended` says how it went; dispose() cancels what is still to come. */
export interface Termination extends Disposable {
  readonly ended: Promise<Ended>;
}

/**
 * Ends `target`: `signals` now, `killSignal` `graceMs` later if it has not ended by then,
 * then `settleMs` more to see it go. The result is a value, never a throw.
 */
export function terminate(target: ProcessTarget, o: TerminateOptions): Termination {
  const held = new DisposableStore();
  let resolve!: (e: Ended) => void;
  const ended = new Promise<Ended>((r) => (resolve = r));
  let forced = false;
  /** How our child ended, when the target is its group and the rest of the group is still to go. */
  let leader: ChildEnd | null = null;
  const finish = (e: Ended) => {
    if (held.isDisposed) return;
    held.dispose();
    resolve(e);
  };
  const termination: Termination = { ended, dispose: () => finish({ kind: 'cancelled' }) };

  const child = isChild(target) ? target : typeof target === 'object' && isChild(target.group) ? target.group : null;
  const polled = !o.exited && !child ? pollTarget(target) : null;
  if ((child && childEnded(child)) || (polled && !polled())) {
    finish({ kind: 'already-gone' });
    return termination;
  }
  if (o.exited) held.add(o.exited(() => finish({ kind: 'gone', forced })));
  else if (child && child === target) held.add(onChildExit(child, (e) => finish({ ...e, forced })));
  else if (child) {
    // Our child's group: its exit is told once the rest of the group is gone too (or still there after the kill).
    const pgid = child.pid!;
    held.add(
      onChildExit(child, (e) => {
        leader = e;
        held.add(watchGone(() => isGroupAlive(pgid), () => finish({ ...e, forced }), { scheduler: o.scheduler, pollMs: o.pollMs }));
      }),
    );
  }

  const asked = askToEnd(target, o.signals ?? ['SIGTERM']);
  if (asked) finish(asked);
  if (polled) held.add(watchGone(polled, () => finish({ kind: 'gone', forced }), { scheduler: o.scheduler, pollMs: o.pollMs }));
  if (held.isDisposed) return termination;

  held.add(
    o.scheduler.setTimeout(() => {
      const r = sendSignal(target, o.killSignal ?? 'SIGKILL');
      if (r.kind === 'refused') return finish(r);
      // Gone between the last look and now: the first signals ended it (our child's exit has told already).
      if (r.kind === 'gone') return finish(leader ? { ...leader, forced: false } : { kind: 'gone', forced: false });
      forced = r.kind === 'sent';
      held.add(o.scheduler.setTimeout(() => finish(polled && !polled() ? { kind: 'gone', forced } : { kind: 'still-alive' }), o.settleMs ?? KILL_SETTLE_MS));
    }, o.graceMs ?? KILL_GRACE_MS),
  );
  return termination;
}

/** Sends the first signals; how it ended when one of them found nobody or was refused, else null. */
function askToEnd(target: ProcessTarget, signals: readonly NodeJS.Signals[]): Ended | null {
  for (const [i, sig] of signals.entries()) {
    const r = sendSignal(target, sig);
    if (r.kind === 'refused') return r;
    // Nobody there for the first: it was gone already. For a later one, the first ended it.
    if (r.kind === 'gone') return i === 0 ? { kind: 'already-gone' } : { kind: 'gone', forced: false };
  }
  return null;
}

/** How to look whether a target we get no exit event for is there. */
function pollTarget(target: ProcessTarget): (() => boolean) | null {
  if (typeof target === 'number') return () => isPidAlive(target);
  if (typeof target === 'object' && !isChild(target) && typeof target.group === 'number') {
    const { group, orLeader } = target;
    return () => isGroupAlive(group, orLeader);
  }
  return null;
}

/** How our child ended, as an Ended without `forced`. */
type ChildEnd = { kind: 'exited'; code: number } | { kind: 'killed'; signal: string };

function onChildExit(child: ChildProcess, fn: (e: ChildEnd) => void): Disposable {
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => fn(signal ? { kind: 'killed', signal } : { kind: 'exited', code: code ?? 0 });
  child.once('exit', onExit);
  return toDisposable(() => child.off('exit', onExit));
}
