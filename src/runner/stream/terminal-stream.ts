/**
 * The terminal stream to the clients: each chunk the program prints goes to the live clients
 * (encoded once per framing), a client that cannot keep up falls behind and is re-snapshotted once it drains,
 * and a subscribe is answered with a replay from the ring or a snapshot.
 */
import type { Scheduler } from '../../core/clock.js';
import type { DisposableStore } from '../../core/lifetime.js';
import type { OutputRing, RingChunk } from '../../core/terminal/output-ring.js';
import type { ClientConn } from '../clients/client-conn.js';
import { clientBacklogLimit } from '../clients/stream-state.js';
import type { ClientSet } from '../clients/client-set.js';
import type { Logger } from '../log.js';
import { EXIT_HANDBACK_TIMEOUT_MS } from '../clients/output-sink.js';
import { AttachHint, hintText } from './attach-hint.js';
import { sendSnapshot, type SnapshotModel, type SnapshotSource } from './snapshots.js';
import type { PtyOutput } from '../pty/utf8-chunker.js';
import { SharedFrame } from '../clients/wire-framing.js';

export interface StreamDeps {
  ring: OutputRing;
  model: SnapshotModel;
  clients: ClientSet;
  generation: string;
  scheduler: Scheduler;
  timers: DisposableStore;
  log: Logger;
}

export class TerminalStream {
  private readonly src: SnapshotSource;

  constructor(private readonly d: StreamDeps) {
    this.src = { model: d.model, ring: d.ring, generation: d.generation, scheduler: d.scheduler, timers: d.timers };
  }

  /**
   * Output for the clients; returns its chunk (the ring keeps its text for replays and
   * snapshots). Its bytes, when they are its text's UTF-8, go out as they are: to a direct
   * terminal, and as binary1 frames' data (no re-encode); NDJSON clients get the text.
   */
  publish(out: PtyOutput): RingChunk {
    const chunk = this.d.ring.push(out.text, out.raw?.length);
    let frame: SharedFrame | null = null; // encoded once per framing, whatever the number of clients
    const limit = clientBacklogLimit(this.d.model.term.cols, this.d.model.term.rows);
    for (const c of this.d.clients) {
      if (c.stream !== 'live' || c.cursor !== chunk.seq) continue;
      if (c.direct) {
        c.pushDirect(chunk, out.raw); // written to the client's terminal: no frame
      } else {
        frame ??= new SharedFrame({ type: 'output', seq: chunk.seq, data: out.text }, out.raw);
        c.pushLive(chunk, frame);
      }
      c.hint?.output(); // the program may have drawn over the attach's note
      if (c.backlog > limit) this.fallBehind(c);
    }
    return chunk;
  }

  /**
   * A client joins the stream (its `subscribe_terminal`): the ring from `sinceSeq` when it still
   * holds it, else a snapshot with `scrollback` lines of history. `hint`: a note over this
   * client's first frames (src/runner/stream/attach-hint.ts).
   */
  join(c: ClientConn, sinceSeq: number | undefined, scrollback: number, hint?: string): void {
    const text = hint ? hintText(hint) : '';
    c.showHint(text ? new AttachHint(c, text, { scheduler: this.d.scheduler, frame: (cc, overlay) => sendSnapshot(this.src, cc, 0, overlay) }) : null);
    if (sinceSeq !== undefined && this.d.ring.holds(sinceSeq)) {
      c.send({ type: 'replay_begin', fromSeq: sinceSeq, generation: this.d.generation });
      c.goLive(sinceSeq, this.d.ring.since(sinceSeq) ?? []);
      c.hint?.output(); // a replay has no frame of ours: the note comes with the next one
      return;
    }
    sendSnapshot(this.src, c, scrollback, c.hint?.text);
  }

  /** The program exited: live clients get what they have not seen yet, then everyone the exit and a goodbye. */
  farewell(exit: { code: number | null; signal: string | null; killed?: string }): void {
    for (const c of this.d.clients) {
      c.catchUp(this.d.ring.since(c.cursor) ?? []);
      const goodbye = () => {
        c.send({ type: 'exit', code: exit.code, signal: exit.signal, ...(exit.killed ? { killed: exit.killed } : {}) });
        c.finish({ type: 'bye', reason: 'exit' });
      };
      // A direct client's terminal gets the last output before the client hears of the exit and restores it.
      this.withoutHint(c, () => {
        if (c.direct) void c.handBack(EXIT_HANDBACK_TIMEOUT_MS).then(goodbye);
        else goodbye();
      });
    }
  }

  /**
   * The client is leaving (a detach, the exit): the attach's note, if still over its frame, goes
   * with one more exact frame, so the terminal it gives back shows the session and nothing of
   * ours; then `then`. At once when there is none.
   */
  withoutHint(c: ClientConn, then: () => void): void {
    const noted = c.hint !== null;
    c.showHint(null);
    if (!noted || c.stream !== 'live' || c.closed) return then();
    sendSnapshot(this.src, c, 0, undefined, then);
  }

  /** The client cannot keep up: stop sending, and re-snapshot it once its socket drains. */
  private fallBehind(c: ClientConn): void {
    if (!c.lag(() => sendSnapshot(this.src, c, 0, c.hint?.text)).ok) return;
    this.d.log(`client ${c.id} fell behind (${c.backlog} bytes queued); will re-snapshot`);
  }
}
