/**
 * One signal to a process, a process group, or a child of ours, with the answer as data.
 * Every signal agent-board sends goes through here (docs/architecture.md, "Processes: one module").
 */
import type { ChildProcess } from 'node:child_process';

/**
 * Who gets a signal:
 * - a pid: a process we did not start (a runner, a lost session's program);
 * - `{ group }`: every process of a process group (a program and the children it started),
 *   by its leader's pid; `orLeader`: the leader alone when the group is gone (it moved to a
 *   group of its own), as a PTY's program may;
 * - a ChildProcess: our own child, signalled through node, which never signals a pid it has
 *   already reaped (and another process may have by now);
 * - `{ group: child }`: our child started in a group of its own (detached), and its group.
 */
export type ProcessTarget = number | ChildProcess | { group: number | ChildProcess; orLeader?: boolean };

/** What came of one signal: sent, nobody there to get it, or refused (EPERM: not ours). */
export type Signalled = { kind: 'sent' } | { kind: 'gone' } | { kind: 'refused'; error: NodeJS.ErrnoException };

const SENT: Signalled = { kind: 'sent' };
const GONE: Signalled = { kind: 'gone' };

export function isChild(t: unknown): t is ChildProcess {
  return typeof t === 'object' && t !== null && typeof (t as ChildProcess).kill === 'function';
}

/** Whether our child has exited (or never started): its pid is no longer ours to signal. */
export function childEnded(child: ChildProcess): boolean {
  return child.pid === undefined || child.exitCode !== null || child.signalCode !== null;
}

/** Sends `sig` to `target`; never throws for a process that is gone or not ours. */
export function sendSignal(target: ProcessTarget, sig: NodeJS.Signals): Signalled {
  if (typeof target === 'number') return kill(target, sig);
  if (isChild(target)) {
    if (childEnded(target)) return GONE;
    try {
      return target.kill(sig) ? SENT : GONE;
    } catch (err) {
      return { kind: 'refused', error: err as NodeJS.ErrnoException };
    }
  }
  const leader = isChild(target.group) ? target.group.pid : target.group;
  if (leader === undefined || leader <= 1) return GONE; // a child that never started; never the signal to every process (-1)
  const r = kill(-leader, sig);
  if (r.kind !== 'gone' || !target.orLeader) return r;
  // The group is gone: the leader alone, unless it is our child and already reaped.
  if (isChild(target.group)) return sendSignal(target.group, sig);
  return kill(leader, sig);
}

function kill(pid: number, sig: NodeJS.Signals): Signalled {
  if (pid === 0 || pid === -1) return GONE; // our own group, or every process: never meant
  try {
    process.kill(pid, sig);
    return SENT;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return e.code === 'ESRCH' ? GONE : { kind: 'refused', error: e };
  }
}
