/**
 * Whether the program's exit was asked for: a user's `kill`, the board's x, `restart` (a
 * `terminate` message) or `rm --force` (SIGTERM to the runner). Such an exit is recorded as
 * `killed` (host.json, the `exit` message), which every reader shows as a kill, not a failure;
 * a program that died of a signal nobody asked for stays a failure.
 */
import type { Clock } from '../../core/clock.js';

/** Signals that ask a program to end; another one (USR1, WINCH, CONT...) asks for something else. */
const ENDING = new Set(['SIGTERM', 'SIGKILL', 'SIGHUP', 'SIGINT', 'SIGQUIT']);

/**
 * After one ending signal sent alone (`kill --signal INT`), how long an exit still counts as its
 * doing: a program that ignored it and ended much later, on its own, was not killed. A plain
 * terminate needs no window: it ends with SIGKILL if nothing else ends it.
 */
export const SIGNAL_KILL_WINDOW_MS = 5000;

export class KillRequest {
  private asked: { signal: string; at: number; escalates: boolean } | null = null;

  constructor(private readonly clock: Clock) {}

  /** A user asked the program to end with `signal` (escalates: SIGKILL follows if it does not). */
  ask(signal: string, escalates: boolean): void {
    if (!ENDING.has(signal)) return;
    // An escalating request stays; a later single signal does not shorten it.
    if (this.asked?.escalates && !escalates) return;
    this.asked = { signal, at: this.clock.now(), escalates };
  }

  /** At the exit: the signal whose request ended the program, or undefined when nobody asked for it. */
  killedWith(): string | undefined {
    const a = this.asked;
    if (!a) return undefined;
    return a.escalates || this.clock.now() - a.at <= SIGNAL_KILL_WINDOW_MS ? a.signal : undefined;
  }
}
