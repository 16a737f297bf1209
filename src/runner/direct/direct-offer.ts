/**
 * A subscribe's request for direct output (docs/protocol.md, "Direct output"): the client's
 * terminal checked and opened for a non-blocking writer, the client's sink made of it, and
 * direct input offered beside it; or the reason why not, to the client and the log.
 */
import fs from 'node:fs';
import tty from 'node:tty';
import type { Clock, Scheduler } from '../../core/clock.js';
import type { ClientMessage, DirectRequest } from '../../core/protocol/client-messages.js';
import { bootId } from '../../state/proc-identity.js';
import type { ClientConn } from '../clients/client-conn.js';
import { offerInput, type DirectInput } from './direct-input.js';
import { DirectTerminal } from './direct-terminal.js';
import { EchoRelay } from './echo-relay.js';
import type { Logger } from '../log.js';
import { makeNonBlocking } from '../node-internals.js';
import type { PtyBorrower, PtyLease } from '../pty/pty-host.js';
import { adoptTtyStream, openClientTerminal } from './tty-check.js';

/** What direct output and input need of the session. */
export interface DirectDeps {
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
  /** The settle markers of the kind whose rules apply now (what the client's jiggle chain looks for). */
  settleMarkers(): readonly string[];
  /** A message as if the client had sent it (direct input's keys and detach): the message table's gates and handlers. */
  handle(c: ClientConn, msg: ClientMessage): void;
  /** Keys typed as bytes, through the `input` row's gate (src/runner/control/dispatch.ts typeKeys); false when it refuses. */
  typeKeys(c: ClientConn, bytes: Uint8Array): boolean;
  /** The PTY lent to the echo relay (src/runner/pty/pty-host.ts lend), or null. */
  lendPty(borrower: PtyBorrower): PtyLease | null;
  /** The `input` row's gate lets this client type now (src/runner/control/dispatch.ts mayTypeKeys). */
  mayType(c: ClientConn): boolean;
  /** The echo relay typed keys for this client: the stamp and size a typed key gets. */
  typedByRelay(c: ClientConn): void;
}

/**
 * A non-blocking writer on the opened terminal, or why not. tty.WriteStream makes its writes
 * blocking (right for a process's own stdout); ours must never block the runner, so that is
 * undone (node-internals.ts makeNonBlocking).
 */
function nonBlockingWriter(opened: { fd: number; stat: fs.Stats }, path: string): tty.WriteStream | string {
  let out: tty.WriteStream;
  try {
    out = new tty.WriteStream(opened.fd);
  } catch (err) {
    fs.closeSync(opened.fd);
    return `cannot write to the terminal: ${(err as Error).message}`;
  }
  // libuv writes on a reopened fd of its own: ours is closed, and its one checked (src/runner/direct/tty-check.ts).
  const changed = adoptTtyStream(out, opened.fd, opened.stat, path);
  if (changed) {
    out.destroy();
    return changed;
  }
  if (!makeNonBlocking(out)) {
    out.destroy(); // closes the fd
    return 'cannot make writes to the terminal non-blocking';
  }
  return out;
}

/**
 * A subscribe's request for direct output, checked and answered (`direct_on`, or `direct_refused`
 * with the reason, also logged): true when the client's output now goes to its terminal.
 */
export function offerDirect(c: ClientConn, req: DirectRequest | undefined, d: DirectDeps): boolean {
  const replaced = c.outputTo(null); // a second subscribe starts over; the old writer is dropped
  if (!req) return false;
  const refuse = (reason: string) => {
    d.log(`client ${c.id}: direct output to ${req.path.slice(0, 64)} refused: ${reason}`);
    c.send({ type: 'direct_refused', reason });
    return false;
  };
  const uid = process.getuid?.();
  if (uid === undefined) return refuse('no user ids on this platform');
  const opened = openClientTerminal(req, { uid, bootId: bootId() });
  if (!opened.ok) return refuse(opened.reason);
  const out = nonBlockingWriter(opened, req.path);
  if (typeof out === 'string') return refuse(out);
  const sink = new DirectTerminal(out, req.altScreen, req.cut || replaced, {
    clock: d.clock,
    scheduler: d.scheduler,
    settleMarkers: d.settleMarkers,
    tell: (m) => c.send(m),
    failed: (why) => {
      d.log(`client ${c.id}: its terminal ${req.path} failed (${why}); dropping the client`);
      c.dispose();
    },
  });
  c.outputTo(sink);
  const input = req.input ? offerInput(c, req, uid, sink, d) : null; // after outputTo: the sink owns the reader
  c.send(input ? { type: 'direct_on', input: true } : { type: 'direct_on' });
  d.log(`client ${c.id}: output goes straight to ${req.path}`);
  if (input) relayEcho(c, sink, input, d);
  return true;
}

/**
 * With both the terminal's output and its keys in the runner's hands, the echo relay's thread
 * carries them (src/runner/direct/echo-relay.ts); without it, the event loop does, as it always has.
 */
function relayEcho(c: ClientConn, sink: DirectTerminal, input: DirectInput, d: DirectDeps): void {
  const relay = EchoRelay.start((b) => d.lendPty(b), sink, {
    keysFd: input.fd,
    stopBytes: input.detachStartBytes,
    get mayType() {
      return !input.halfRead && d.mayType(c);
    },
    get closed() {
      return input.ended;
    },
    typed: () => d.typedByRelay(c),
    read: (bytes) => input.bytes(bytes),
    ended: (why) => sink.inputFailed(why),
    readOwn: () => input.resumeOwnReads(),
  });
  if (typeof relay === 'string') {
    input.resumeOwnReads();
    return d.log(`client ${c.id}: keys and echo go through the event loop: ${relay}`);
  }
  sink.relayWith(relay);
  d.log(`client ${c.id}: keys and echo go through the echo relay`);
}
