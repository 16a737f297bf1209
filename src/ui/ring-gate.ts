import type { AttachOutput } from '../client/attach/attach.js';
import { scanEscapes, type ScanState } from '../core/terminal/escape-scan.js';

/**
 * The board's rings (BEL, OSC notifications) go to the terminal as writes of
 * their own. While the board draws, between Ink's frames, which are whole.
 * While an attach has the terminal, only between the session's escape
 * sequences: the attach writes through `output`, which follows where the
 * terminal's parser is (src/core/terminal/escape-scan.ts), and a ring that comes in
 * the middle of a sequence waits for the write that ends it.
 */
export class RingGate {
  private state: ScanState = 'ground';
  private held = '';
  private holding = false;
  /** The terminal for an attach: the same stream, every write watched. */
  readonly output: AttachOutput;

  constructor(private readonly out: AttachOutput) {
    const gate = this;
    this.output = {
      write(data: string): boolean {
        const ok = out.write(data);
        gate.state = scanEscapes(gate.state, data);
        gate.flush();
        return ok;
      },
      get columns() {
        return out.columns;
      },
      get rows() {
        return out.rows;
      },
      on: (event, fn) => out.on(event, fn),
      off: (event, fn) => out.off(event, fn),
      once: (event, fn) => out.once(event, fn),
    };
  }

  /**
   * While the session's runner writes to the terminal itself (direct output), the gate cannot
   * follow its sequences: rings wait until it hands the terminal back.
   */
  hold(on: boolean): void {
    this.holding = on;
    this.flush();
  }

  ring(seq: string): void {
    if (!seq) return;
    this.held += seq;
    this.flush();
  }

  /** The attach is over and the board draws again (from a clean screen): whatever it left open is gone. */
  reset(): void {
    this.state = 'ground';
    this.holding = false;
    this.flush();
  }

  private flush(): void {
    if (this.state !== 'ground' || this.holding || !this.held) return;
    const seq = this.held;
    this.held = '';
    this.out.write(seq);
  }
}
