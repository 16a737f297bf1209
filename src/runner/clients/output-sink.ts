/** Where a client's output goes when it is not its socket: the seam between ClientConn and direct output. */
import type { Disposable } from '../../core/lifetime.js';

/** How long a detach waits for the terminal to take what was written before it gives up on the rest (and says `cut`). */
export const HANDBACK_TIMEOUT_MS = 1000;
/** The same wait at the program's exit: under the runner's exit linger (300 ms), so the goodbye still goes out. */
export const EXIT_HANDBACK_TIMEOUT_MS = 200;

/** How a direct writer ended: whether the terminal is left on the alternate screen, whether bytes were dropped, and the keys read after a detach key (direct input). */
export interface HandBack {
  altScreen: boolean;
  cut: boolean;
  keys?: string;
}

/**
 * Where a client's terminal output goes instead of its socket: its own terminal, written by the
 * runner (src/runner/direct/direct-terminal.ts). The stream logic (seqs, lag, snapshots) is the same.
 */
export interface OutputSink extends Disposable {
  /** Output, in order: `data`'s UTF-8, which is `raw` when it is given (the PTY's bytes, written as they are). */
  write(data: string, raw?: Uint8Array | null): void;
  /** A snapshot's screen frame. */
  screen(frame: string): void;
  /** The client went live. */
  live(): void;
  /** The client left the live stream (it fell behind, or starts over): chunks stop coming until live() again. */
  notLive(): void;
  /** What the client may do changed (it said hello again): whatever types for it asks the gate again (the echo relay). */
  mayTypeChanged(): void;
  readonly backlog: number;
  onceDrained(fn: () => void): Disposable;
  /** No more writes; resolves once all written ones are with the kernel (or after timeoutMs, cut). */
  stop(timeoutMs: number): Promise<HandBack>;
}
