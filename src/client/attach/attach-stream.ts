/**
 * What an attach shows (./attach-client.ts runs it): the runner's messages on the user's terminal,
 * a frame and then live output from the cursor on, written a batch at a time (./attach-output.ts),
 * with the alternate screen followed so the restore can undo it; and what those messages say of
 * the attach, as events: a frame came (the stream is live), output came (the jiggle chain looks
 * for its marker), the session exited or the runner said the detach is done.
 */
import { Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import { terminalRestoreSequence, type AltScreenTracker } from '../../core/terminal/terminal-restore.js';
import type { DirectSide } from './attach-direct.js';
import { StreamCursor } from './attach-cursor.js';
import type { OutputBatch } from './attach-output.js';
import type { AttachResult } from './attach-types.js';

export class AttachStream implements Disposable {
  /** Where the stream is: a reconnect resumes from it. */
  readonly cursor = new StreamCursor();
  private readonly frames = new Emitter<void>();
  private readonly outputs = new Emitter<string>();
  private readonly ends = new Emitter<AttachResult>();
  /** A frame of the subscription came (snapshot_end, replay_begin). */
  readonly onFrame: Event<void> = this.frames.event;
  /** Output was shown. */
  readonly onOutput: Event<string> = this.outputs.event;
  /** The session exited, or the runner confirmed the detach. */
  readonly onEnd: Event<AttachResult> = this.ends.event;

  constructor(
    /** What the terminal shows, as the stream (or, with direct output, the runner) says. */
    private readonly alt: AltScreenTracker,
    private readonly out: OutputBatch,
    private readonly direct: DirectSide,
  ) {}

  handle(m: RunnerMessage): void {
    switch (m.type) {
      case 'snapshot_begin':
        this.cursor.generation = m.generation;
        return;
      case 'replay_begin':
        this.cursor.generation = m.generation;
        this.frames.fire();
        return;
      case 'snapshot_screen':
        // Whatever the terminal shows now (an earlier frame, the user's shell) goes first.
        this.show(this.direct.cancel() + terminalRestoreSequence(this.alt.active) + '\x1b[H\x1b[2J' + m.data);
        return;
      case 'snapshot_end':
        // Direct: the runner wrote the frame and what follows; we cannot resume from a seq we never saw.
        if (!this.direct.active) this.cursor.nextSeq = m.nextSeq;
        this.frames.fire();
        return;
      case 'output':
        if (this.direct.active) return; // never sent while direct
        if (!this.cursor.take(m.seq)) return; // already shown (replay overlap)
        this.outputs.fire(m.data);
        this.show(m.data);
        return;
      case 'exit':
        this.ends.fire({ reason: 'exited', code: m.code, signal: m.signal, ...(m.killed ? { killed: m.killed } : {}) });
        return;
      case 'bye':
        if (m.reason === 'detach') this.ends.fire({ reason: 'detached' });
        return;
      case 'direct_on':
        this.cursor.forget(); // nothing to resume from: we never see the seqs
        this.direct.handle(m);
        return;
      default:
        this.direct.handle(m);
        return;
    }
  }

  /**
   * The end: the terminal given back as it was. Direct output still on here (the runner did not
   * answer in time) cannot be trusted to have stopped cleanly.
   */
  restore(write: (data: string) => void): void {
    this.direct.stopped();
    write(this.direct.cancel() + terminalRestoreSequence(this.alt.active));
  }

  dispose(): void {
    for (const e of [this.frames, this.outputs, this.ends]) e.dispose();
  }

  private show(data: string): void {
    this.alt.feed(data);
    this.out.show(data);
  }
}
