/**
 * The runner's memory of enveloped commands, keyed by commandId only (never
 * seq: a client that reconnects starts its seqs again). A command sent again
 * gets its final ack back, or joins it while it is still in flight.
 */
import type { CmdAck, CommandClass } from './control-protocol.js';
import { isFinalStage } from './control-protocol.js';

/** Final acks remembered for repeats; older ones are forgotten first. Durable input lives on in the journal. */
export const LEDGER_CAPACITY = 1024;

export interface LedgerEntry {
  cls: CommandClass;
  /** The latest ack sent for it; final once `done`. */
  last: CmdAck | null;
  done: boolean;
}

export class CommandLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  constructor(private readonly capacity = LEDGER_CAPACITY) {}

  get(commandId: string): LedgerEntry | undefined {
    return this.entries.get(commandId);
  }

  /** A new command: remembered from now on (in flight). */
  begin(commandId: string, cls: CommandClass): LedgerEntry {
    const entry: LedgerEntry = { cls, last: null, done: false };
    this.entries.set(commandId, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return entry;
  }

  /**
   * Records an ack about to be sent. A rejection of a command that got no ack
   * yet is not remembered: the command may be tried again. Once a command was
   * acked, a rejection under its commandId is about a repeat (from a read-only
   * or stale connection): forgetting the command then would let the same
   * commandId run twice, so it is ignored, and so is anything after a final ack.
   */
  note(ack: CmdAck): void {
    const entry = this.entries.get(ack.commandId);
    if (!entry || entry.done) return;
    if (ack.stage === 'rejected') {
      if (entry.last === null) this.entries.delete(ack.commandId);
      return;
    }
    entry.last = ack;
    entry.done = isFinalStage(entry.cls, ack.stage);
  }

  /** What to answer a repeat of commandId with: the final ack (marked cached), the stage so far, or nothing yet. */
  replay(commandId: string): CmdAck | null {
    const entry = this.entries.get(commandId);
    if (!entry?.last) return null;
    return entry.done ? { ...entry.last, cached: true } : entry.last;
  }
}
