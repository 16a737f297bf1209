/** The session's control layer (src/runner/control/control.ts) and its durable prompts, wired to each other and to the session. */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { ClientConn } from '../clients/client-conn.js';
import { Control } from './control.js';
import { DurableInputs } from './durable-inputs.js';
import { CommandJournal } from './journal.js';
import type { Logger } from '../log.js';

/** What the control layer and the prompts read of the session, asked afresh each time. */
export interface ControlSource {
  id: string;
  generation: string;
  exit(): { code: number | null; signal: string | null } | null;
  revision(): number;
  /** The last output seq produced (-1: none yet). */
  lastSeq(): number;
  /** The rules of the kind that applies now (a shell session's foreground agent). */
  kind(): { multiline?: string; enterDelayMs: number; enterAfterEcho: boolean };
  /** The program asked for bracketed paste (mode 2004). */
  bracketedPasteMode(): boolean;
  /** Types a prompt's bytes into the program. */
  type(data: string): void;
  /** When the program last printed (ms since the epoch; 0: never). */
  lastOutputMs(): number;
  /** The screen shows `text` on one of its lines. */
  screenShows(text: string): boolean;
  resizeFor(c: ClientConn, cols: number, rows: number): { cols: number; rows: number };
  /** Why new prompts are held now (a budget spent), or null. */
  promptsHeld(): string | null;
}

export interface ControlWiring {
  source: ControlSource;
  journalFile: string;
  log: Logger;
  clock: Clock;
  scheduler: Scheduler;
  /** Test-only: hold every prompt this long between accept and write. */
  applyDelayMs?: number;
}

/** The prompts' acks go through the control layer, to every connection that sent the prompt. */
export function wireControl(w: ControlWiring): { control: Control; prompts: DurableInputs } {
  const s = w.source;
  const prompts: DurableInputs = new DurableInputs({
    target: {
      generation: s.generation,
      get exited() {
        return s.exit() !== null;
      },
      // Several lines go in as one paste when the kind submits them that way and the program asked for it.
      bracketedPaste: () => s.kind().multiline === 'bracketed-paste' && s.bracketedPasteMode(),
      write: (data) => s.type(data),
      enterDelayMs: () => s.kind().enterDelayMs,
      enterAfterEcho: () => s.kind().enterAfterEcho,
      quietFor: () => (s.lastOutputMs() ? w.clock.now() - s.lastOutputMs() : Number.POSITIVE_INFINITY),
      shows: (text) => s.screenShows(text),
    },
    journal: new CommandJournal(w.journalFile),
    ack: (ack) => control.sendAck(ack),
    log: w.log,
    clock: w.clock,
    scheduler: w.scheduler,
    ...(w.applyDelayMs ? { applyDelayMs: w.applyDelayMs } : {}),
  });
  const control: Control = new Control({
    session: {
      id: s.id,
      generation: s.generation,
      get exit() {
        return s.exit();
      },
      get revision() {
        return s.revision();
      },
      get lastSeq() {
        return s.lastSeq();
      },
      resizeFor: (c, cols, rows) => s.resizeFor(c, cols, rows),
    },
    prompts,
    log: w.log,
    scheduler: w.scheduler,
    promptsHeld: () => s.promptsHeld(),
  });
  return { control, prompts };
}
