/** Prompts (durable input): journaled, accepted, typed at once or when the program is quiet, then acked applied. */
import type { Clock, Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import {
  describeInput,
  foldJournal,
  isUnresolved,
  type CommandState,
} from '../../core/protocol/command-journal.js';
import type { CmdAck, CommandStatus } from '../../core/protocol/control-protocol.js';
import type { InputMsg } from '../../core/protocol/client-messages.js';
import { ENTER_ECHO_WAIT_MS } from '../../core/agents/agent-kinds.js';
import { ENTER, promptBytes } from '../../core/terminal/prompt-text.js';
import { ENTER_AFTER_ECHO_MS, echoTail } from './enter-after-echo.js';
import type { CommandJournal } from './journal.js';
import type { Logger } from '../log.js';
import { isoTime } from '../../core/iso-time.js';
import { cannotWriteMessage } from '../../core/write-failure.js';

/** A when-idle prompt without its own quiet period waits for this much silence. */
export const DEFAULT_QUIET_MS = 2000;
/** How often an Enter that waits for the echo looks again. */
const ECHO_POLL_MS = 20;
/** Resolved commands remembered in memory for reconcile beyond the journal's own GC. */
const MAX_STATES = 2048;

/** What durable input needs from its session. */
export interface PromptTarget {
  readonly generation: string;
  readonly exited: boolean;
  /** The program asked for bracketed paste (mode 2004). */
  bracketedPaste(): boolean;
  write(data: string): void;
  /** The agent kind's pause between the text and the Enter. */
  enterDelayMs(): number;
  /** Whether the Enter also waits for the program to echo the text (the kind's enterAfterEcho). */
  enterAfterEcho(): boolean;
  /** Milliseconds since the program last printed (Infinity: never). */
  quietFor(): number;
  /** The screen shows `text` (on one line): the program has drawn it. */
  shows(text: string): boolean;
}

interface Pending {
  commandId: string;
  msg: InputMsg;
  /** Its next step (the test delay, the Enter, an echo look): one at a time. */
  timer: MutableDisposable;
}

export interface DurableInputsDeps {
  target: PromptTarget;
  journal: CommandJournal;
  ack: (ack: CmdAck) => void;
  log: Logger;
  clock: Clock;
  scheduler: Scheduler;
  /** Test-only: hold every prompt this long between accept and write (the fault window). */
  applyDelayMs?: number;
}

/**
 * Prompts: journaled and accepted, then typed (at once, or once the program
 * has been quiet, for when-idle), then journaled and acked as applied. Every
 * timer belongs to one pending prompt and is cleared when the session ends.
 */
export class DurableInputs implements Disposable {
  private readonly states: Map<string, CommandState>;
  private readonly queue: Pending[] = [];
  private readonly inFlight = new Map<string, Pending>();
  private readonly idleTimer = new MutableDisposable();
  private readonly target: PromptTarget;
  private readonly journal: CommandJournal;
  private readonly ack: (ack: CmdAck) => void;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  private readonly applyDelayMs: number;

  constructor(d: DurableInputsDeps) {
    ({ target: this.target, journal: this.journal, ack: this.ack, log: this.log, clock: this.clock, scheduler: this.scheduler } = d);
    this.applyDelayMs = d.applyDelayMs ?? 0;
    const { log, target, journal } = d;
    this.states = foldJournal(journal.load(), target.generation);
    const unknown = [...this.states.values()].filter((s) => s.status === 'accepted_unknown').length;
    if (unknown) log(`journal: ${unknown} prompt(s) accepted by an earlier runner and never confirmed; reported as accepted_unknown, not replayed`);
  }

  status(commandId: string): CommandStatus | undefined {
    return this.states.get(commandId)?.status;
  }

  unresolved(): Array<{ commandId: string; status: 'accepted' | 'accepted_unknown' }> {
    return [...this.states.values()].filter(isUnresolved).map((s) => ({ commandId: s.commandId, status: s.status as 'accepted' | 'accepted_unknown' }));
  }

  /** Journal first, then accept: false if the journal could not take it (the command is refused). */
  accept(commandId: string, clientId: string, msg: InputMsg): boolean {
    const r = this.journal.append({
      v: 1,
      kind: 'accepted',
      commandId,
      clientId,
      generation: this.target.generation,
      at: isoTime(this.clock.now()),
      command: describeInput(msg.data, msg.submit ?? false, msg.whenIdle ?? false),
    });
    if (!r.ok) {
      this.log(`journal unavailable, prompt ${commandId} refused: ${r.message}`);
      this.ack({ type: 'cmd_ack', commandId, stage: 'rejected', code: 'journal_unavailable', message: cannotWriteMessage("the session's command journal", this.journal.file, r.code, 'send it again') });
      return false;
    }
    this.setState(commandId, 'accepted');
    this.ack({ type: 'cmd_ack', commandId, stage: 'accepted' });
    const p: Pending = { commandId, msg, timer: new MutableDisposable() };
    if (msg.whenIdle) {
      this.queue.push(p);
      this.armIdle();
    } else if (this.applyDelayMs > 0) {
      this.inFlight.set(commandId, p);
      p.timer.value = this.scheduler.setTimeout(() => this.type(p), this.applyDelayMs);
    } else {
      this.type(p);
    }
    return true;
  }

  /** The program printed: a when-idle prompt waits for the next quiet period. Cheap: no timer work per chunk. */
  private armIdle(): void {
    if (this.idleTimer.value || this.queue.length === 0) return;
    const head = this.queue[0]!;
    const wait = Math.max(0, (head.msg.quietMs ?? DEFAULT_QUIET_MS) - this.target.quietFor());
    this.idleTimer.value = this.scheduler.setTimeout(() => {
      this.idleTimer.clear();
      const quietMs = head.msg.quietMs ?? DEFAULT_QUIET_MS;
      if (this.queue[0] !== head) return this.armIdle();
      if (this.target.quietFor() < quietMs) return this.armIdle(); // it printed since: wait on
      this.queue.shift();
      this.type(head);
    }, wait);
  }

  private type(p: Pending): void {
    p.timer.clear();
    if (this.target.exited) return this.fail(p, 'the session exited before the prompt was typed');
    this.inFlight.set(p.commandId, p);
    this.target.write(promptBytes(p.msg.data, this.target.bracketedPaste()));
    if (!p.msg.submit) return this.applied(p);
    const writtenAt = this.clock.now();
    const tail = echoTail(p.msg.data);
    /** When the text's echo was first seen (enter-after-echo.ts). */
    let echoAt: number | null = null;
    const press = () => {
      p.timer.clear();
      if (this.target.exited) return this.fail(p, 'the session exited before Enter was pressed');
      const now = this.clock.now();
      const since = now - writtenAt;
      let wait = this.target.enterDelayMs() - since;
      if (this.target.enterAfterEcho() && since < ENTER_ECHO_WAIT_MS) {
        if (echoAt === null && (tail === null ? this.target.quietFor() < since : this.target.shows(tail))) echoAt = now;
        wait = echoAt === null ? Math.min(ECHO_POLL_MS, ENTER_ECHO_WAIT_MS - since) : Math.max(wait, echoAt + ENTER_AFTER_ECHO_MS - now);
      }
      if (wait > 0) {
        p.timer.value = this.scheduler.setTimeout(press, wait);
        return;
      }
      this.target.write(ENTER);
      this.applied(p);
    };
    // A kind that waits for the echo looks for it from the start, so that one seen early adds nothing to the delay.
    const first = this.target.enterAfterEcho() ? Math.min(ECHO_POLL_MS, this.target.enterDelayMs()) : this.target.enterDelayMs();
    p.timer.value = this.scheduler.setTimeout(press, first);
  }

  private applied(p: Pending): void {
    this.inFlight.delete(p.commandId);
    const r = this.journal.append({ v: 1, kind: 'applied', commandId: p.commandId, generation: this.target.generation, at: isoTime(this.clock.now()) });
    // The prompt is typed whatever the disk says; after a restart it would only look accepted_unknown (safe side).
    if (!r.ok) this.log(`journal: could not record prompt ${p.commandId} as applied: ${r.message}`);
    this.setState(p.commandId, 'applied');
    this.ack({ type: 'cmd_ack', commandId: p.commandId, stage: 'applied' });
    this.armIdle();
  }

  private fail(p: Pending, reason: string): void {
    this.inFlight.delete(p.commandId);
    const r = this.journal.append({ v: 1, kind: 'failed', commandId: p.commandId, generation: this.target.generation, at: isoTime(this.clock.now()), reason });
    // Known not typed either way; after a restart it would only look accepted_unknown (safe side).
    if (!r.ok) this.log(`journal: could not record prompt ${p.commandId} as failed: ${r.message}`);
    this.setState(p.commandId, 'failed');
    this.ack({ type: 'cmd_ack', commandId: p.commandId, stage: 'rejected', code: 'session_exited', message: reason });
  }

  /** The child exited: nothing pending will be typed; say so for each. */
  sessionEnded(): void {
    this.idleTimer.clear();
    for (const p of [...this.inFlight.values(), ...this.queue.splice(0)]) {
      p.timer.dispose();
      this.fail(p, 'the session exited before the prompt was typed');
    }
    this.journal.dispose();
  }

  /** The runner is going away: no timer is left behind (nothing is journaled: a new runner reads the journal as it is). */
  dispose(): void {
    this.idleTimer.dispose();
    for (const p of [...this.inFlight.values(), ...this.queue]) p.timer.dispose();
    this.journal.dispose();
  }

  private setState(commandId: string, status: CommandStatus): void {
    const s = this.states.get(commandId);
    if (s) s.status = status;
    else this.states.set(commandId, { commandId, generation: this.target.generation, status });
    if (this.states.size > MAX_STATES) {
      for (const [id, st] of this.states) {
        if (this.states.size <= MAX_STATES) break;
        if (!isUnresolved(st)) this.states.delete(id);
      }
    }
  }
}
