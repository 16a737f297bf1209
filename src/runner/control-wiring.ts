import { clampSize } from '../core/protocol/size.js';
import { Control } from './control.js';
import { DurableInputs } from './durable-inputs.js';
import { CommandJournal } from './journal.js';
import type { Session, SessionDeps } from './session.js';

/** The session's control layer (src/runner/control.ts) and its durable prompts, wired to the session. */
export function wireControl(session: Session, deps: SessionDeps): Control {
  const prompts = new DurableInputs(
    {
      generation: deps.generation,
      get exited() {
        return session.exit !== null;
      },
      // Several lines go in as one paste when the kind submits them that way and the program asked for it.
      bracketedPaste: () => session.activity.effectiveKind.multiline === 'bracketed-paste' && session.model.term.modes.bracketedPasteMode,
      write: (data) => {
        session.pty.write(data);
        session.onPromptTyped?.();
      },
      enterDelayMs: () => session.activity.effectiveKind.enterDelayMs,
      enterAfterEcho: () => session.activity.effectiveKind.enterAfterEcho,
      quietFor: () => (session.lastOutputMs ? Date.now() - session.lastOutputMs : Number.POSITIVE_INFINITY),
    },
    new CommandJournal(deps.journalFile),
    (ack) => control.sendAck(ack),
    deps.log,
    deps.applyDelayMs,
  );
  const control: Control = new Control(
    {
      id: session.record.id,
      generation: deps.generation,
      get exit() {
        return session.exit;
      },
      get revision() {
        return session.record.revision ?? 0;
      },
      get lastSeq() {
        return session.ring.nextSeq - 1;
      },
      act: (c, msg) => session.act(c, msg),
      resizeFor: (c, cols, rows) => {
        c.lastActive = Date.now();
        c.size = clampSize(cols, rows);
        session.applySize(c.size.cols, c.size.rows);
        return { cols: session.record.cols, rows: session.record.rows };
      },
    },
    prompts,
    deps.log,
  );
  return control;
}
