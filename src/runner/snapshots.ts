import type { ClientConn } from './client-conn.js';
import type { Session } from './session.js';
import { HISTORY_SLICE_LINES } from './terminal-model.js';

/**
 * Gives a client the screen as it is now, then puts it on the live stream.
 *
 * The frame is taken at a chunk boundary outside any synchronized update, at
 * the client's own size (it resized before subscribing). The screen goes
 * first, so an attach shows its first frame at once; history, when asked
 * for, follows in slices on later turns of the event loop while the model is
 * frozen, so no slice blocks the runner for long and line numbers stay put.
 */
export function sendSnapshot(session: Session, c: ClientConn, historyWanted: number): void {
  c.stream = 'snapshot';
  const { model } = session;
  model.whenSettled(() => {
    if (c.closed) return;
    const seq = model.parsedSeq;
    const total = model.historyLength;
    const lines = Math.min(historyWanted, total);
    c.send({
      type: 'snapshot_begin',
      seq,
      cols: model.term.cols,
      rows: model.term.rows,
      generation: session.generation,
      historyLines: lines,
    });
    c.send({ type: 'snapshot_screen', data: model.screenFrame() });
    if (lines === 0) {
      goLive(session, c, seq);
      return;
    }
    model.freeze();
    let at = total - lines;
    const step = () => {
      if (c.closed) {
        model.thaw();
        return;
      }
      const end = Math.min(total, at + HISTORY_SLICE_LINES);
      c.send({ type: 'snapshot_history', data: model.historySlice(at, end) });
      at = end;
      if (at < total) {
        setImmediate(step);
        return;
      }
      model.thaw();
      goLive(session, c, seq);
    };
    setImmediate(step);
  });
}

function goLive(session: Session, c: ClientConn, seq: number): void {
  c.send({ type: 'snapshot_end', nextSeq: seq });
  const missed = session.ring.since(seq);
  if (missed === null) {
    // So much output arrived meanwhile that the ring let go of it: start over.
    sendSnapshot(session, c, 0);
    return;
  }
  c.stream = 'live';
  c.cursor = seq;
  for (const chunk of missed) c.send({ type: 'output', seq: chunk.seq, data: chunk.data });
  c.cursor = session.ring.nextSeq;
}
