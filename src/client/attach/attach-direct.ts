/**
 * The attach client's side of direct output (docs/protocol.md, "Direct output"): the runner
 * writes the session's output to our terminal itself, so we ask for it on every subscribe, learn
 * from the runner what we can no longer see in the stream (the alternate screen, the settle
 * marker), and restore the terminal only once the runner has handed it back. With direct input
 * the runner also reads our keys from the terminal: we stop reading them for as long as it does
 * (src/client/attach/attach-keys.ts) and take back what it read past the detach key.
 */
import type { Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import type { DirectRequest } from '../../core/protocol/client-messages.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import type { DetachKey } from '../../core/terminal/detach-key.js';
import type { AltScreenTracker } from '../../core/terminal/terminal-restore.js';
import type { AttachKeys } from './attach-keys.js';
import type { TerminalIdentity } from './tty-identity.js';

/**
 * How long a detach waits for the runner to hand a direct-output terminal back (direct_off)
 * before it restores the terminal anyway: the runner's own wait (1 s) and a margin.
 */
export const HANDBACK_WAIT_MS = 2000;

/** CAN: cancels an escape sequence a writer that was cut off left open (ignored between sequences). */
const CANCEL = '\x18';

export interface DirectSideOptions {
  terminal?: TerminalIdentity | null;
  log?: (line: string) => void;
  onDirect?: (on: boolean) => void;
  /** What the terminal shows, as the runner tells it while it writes. */
  alt: AltScreenTracker;
  /** The program redrew (the jiggle chain may stop). */
  settled(): void;
  scheduler: Scheduler;
  /** Who reads the keys; with `detachKey` (and not read-only), the runner is asked to read them (direct input). */
  keys: AttachKeys;
  detachKey: DetachKey;
  readOnly?: boolean;
}

export class DirectSide implements Disposable {
  private on = false;
  /** A detach waiting for the hand-back. */
  private waiting: { done: () => void; timer: Disposable } | null = null;
  /** Our terminal may be inside an escape sequence a writer left open (a runner that died writing). */
  private cut = false;

  constructor(private readonly o: DirectSideOptions) {}

  /** The runner writes our output on the current connection. */
  get active(): boolean {
    return this.on;
  }

  /**
   * What a subscribe adds: the request, with what our terminal shows now. Asking for direct input
   * stops our reading of the keys first (what the stream holds goes out before the request).
   */
  request(): { direct?: DirectRequest } {
    const t = this.o.terminal;
    if (!t) return {};
    const { inputFd, ...identity } = t;
    const direct: DirectRequest = { ...identity, altScreen: this.o.alt.active, cut: this.cut };
    if (inputFd !== undefined && !this.o.readOnly) {
      this.o.keys.hold();
      direct.input = { fd: inputFd, detachKeys: this.o.detachKey.sequences };
    }
    return { direct };
  }

  get handingBack(): boolean {
    return this.waiting !== null;
  }

  /** Detached with direct output on: `done` once the runner has handed the terminal back, or after HANDBACK_WAIT_MS anyway. */
  handBack(done: () => void): void {
    const timer = this.o.scheduler.setTimeout(() => {
      this.o.log?.('the runner did not hand the terminal back in time; restoring it anyway');
      this.release()?.();
    }, HANDBACK_WAIT_MS);
    this.waiting = { done, timer };
  }

  /** A direct_* message from the runner (any other is left alone). */
  handle(m: RunnerMessage): void {
    switch (m.type) {
      case 'direct_on':
        this.set(true);
        this.cut = false; // the runner cancels it before its first frame
        if (!m.input) this.o.keys.release(); // not asked, refused, or a runner without direct input: we read them
        return;
      case 'direct_refused':
        this.o.log?.(`direct output refused, output comes over the socket: ${m.reason}`);
        this.o.keys.release();
        return;
      case 'direct_alt':
        this.o.alt.active = m.active;
        return;
      case 'direct_settled':
        this.o.settled();
        return;
      case 'direct_off':
        // The runner stopped reading too (a detach or the exit, and the end follows: we do not read again).
        if (m.keys) this.o.keys.putBack(m.keys);
        this.o.alt.active = m.altScreen;
        this.cut ||= m.cut;
        this.set(false);
        this.release()?.();
        return;
      default:
        return;
    }
  }

  /**
   * The runner no longer writes without having said so (the connection closed, or it did not
   * answer a detach in time): it may have stopped in the middle of a sequence.
   */
  stopped(): void {
    if (this.on) this.cut = true;
    this.set(false);
    this.o.keys.release(); // a runner that is gone reads nothing: the keys are ours again
  }

  /** What goes before the next thing we write ourselves (a frame, the restore): CAN when a writer was cut. */
  cancel(): string {
    const c = this.cut ? CANCEL : '';
    this.cut = false;
    return c;
  }

  dispose(): void {
    this.release();
  }

  /** Ends the wait for a hand-back; returns what was waiting. */
  private release(): (() => void) | undefined {
    const w = this.waiting;
    this.waiting = null;
    w?.timer.dispose();
    return w?.done;
  }

  private set(on: boolean): void {
    if (this.on === on) return;
    this.on = on;
    this.o.onDirect?.(on);
  }
}
