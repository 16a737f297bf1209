/**
 * Where an attach is (src/core/attach-states.ts: the states and the one table of their moves),
 * held for its client (./attach-client.ts): every change goes through `move`, is told on
 * `onChange`, and a move the table does not have is refused, told on `onIllegalMove`, never made.
 */
import { attachMove, type AttachEvent, type AttachMove, type AttachState } from '../../core/attach-states.js';
import { Emitter, type Disposable, type Event } from '../../core/lifetime.js';

export interface AttachChange {
  from: AttachState;
  to: AttachState;
  on: AttachEvent;
}

export class AttachMachine implements Disposable {
  private now: AttachState = 'connecting';
  private readonly changes = new Emitter<AttachChange>();
  private readonly refusals = new Emitter<string>();
  /** A move made. */
  readonly onChange: Event<AttachChange> = this.changes.event;
  /** A move the table refused (a bug in the client): what was asked, from where. */
  readonly onIllegalMove: Event<string> = this.refusals.event;

  get state(): AttachState {
    return this.now;
  }

  /** Makes the move `on` from where the attach is; a refused one leaves it there, and is the error value returned. */
  move(on: AttachEvent): AttachMove {
    const m = attachMove(this.now, on);
    if (!m.ok) {
      this.refusals.fire(m.message);
      return m;
    }
    const from = this.now;
    this.now = m.to;
    this.changes.fire({ from, to: m.to, on });
    return m;
  }

  dispose(): void {
    this.changes.dispose();
    this.refusals.dispose();
  }
}
