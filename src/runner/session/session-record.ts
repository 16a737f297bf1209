/**
 * A session's record, host.json, as its runner keeps it: written with the screen's last line
 * (the board's preview), each write and push sent to the clients that watch the status, and
 * written again when the model catches up after a burst (docs/architecture.md, "The board").
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { ClientSet } from '../clients/client-set.js';
import { HostWriter } from './host-writer.js';
import type { Logger } from '../log.js';
import { lastScreenLine } from '../model/model-text.js';
import type { TerminalModel } from '../model/terminal-model.js';

export interface SessionRecordDeps {
  hostFile: string;
  record: HostRecord;
  generation: string;
  model: TerminalModel;
  clients: ClientSet;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
  heartbeatMs?: number;
  /** Keeps the writer and its listeners for as long as the session lives (its owner's store). */
  hold: <T extends Disposable>(d: T) => T;
}

/** host.json's writer for the session, wired to its model and its clients. */
export function keepRecord(d: SessionRecordDeps): HostWriter {
  const { model, clients, log } = d;
  const host = d.hold(
    new HostWriter({
      file: d.hostFile,
      record: d.record,
      clock: d.clock,
      scheduler: d.scheduler,
      onError: (err) => log(`could not write host.json: ${err.message}; the session goes on, and says so to its clients`),
      onRecovered: (code, since) => log(`host.json written again (it could not be since ${since}: ${code})`),
      heartbeatMs: d.heartbeatMs,
      decorate: () => ({ previewLine: lastScreenLine(model) }),
      // whenParsed, not whenSettled: a push must not end the model's rests while output is hot (a
      // last line needs no sequence boundary), or every burst would be parsed flat out again.
      settled: (fn) => model.whenParsed(fn),
    }),
  );
  d.hold(host.onWrite((rec) => clients.pushStatus(rec, d.generation)));
  d.hold(host.onPush((rec) => clients.pushStatus(rec, d.generation)));
  // After a burst the model catches up later than the output: host.json's preview is written again from its screen.
  d.hold(model.onCaughtUp(() => host.noteOutput()));
  return host;
}
