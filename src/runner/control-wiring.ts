/** The session's control layer (src/runner/control.ts) and its durable prompts, wired to each other. */
import type { Clock, Scheduler } from '../core/clock.js';
import { Control, type ControlSession } from './control.js';
import { DurableInputs, type PromptTarget } from './durable-inputs.js';
import { CommandJournal } from './journal.js';
import type { Logger } from './log.js';

export interface ControlWiring {
  session: ControlSession;
  target: PromptTarget;
  journalFile: string;
  log: Logger;
  clock: Clock;
  scheduler: Scheduler;
  /** Test-only: hold every prompt this long between accept and write. */
  applyDelayMs?: number;
}

/** The prompts' acks go through the control layer, to every connection that sent the prompt. */
export function wireControl(w: ControlWiring): { control: Control; prompts: DurableInputs } {
  const prompts: DurableInputs = new DurableInputs({
    target: w.target,
    journal: new CommandJournal(w.journalFile),
    ack: (ack) => control.sendAck(ack),
    log: w.log,
    clock: w.clock,
    scheduler: w.scheduler,
    ...(w.applyDelayMs ? { applyDelayMs: w.applyDelayMs } : {}),
  });
  const control: Control = new Control({ session: w.session, prompts, log: w.log, scheduler: w.scheduler });
  return { control, prompts };
}
