/**
 * The session's unix socket: 0600, created under a restrictive umask, in a 0700 folder of ours
 * (Node cannot read SO_PEERCRED, so the file modes are the gate, as for tmux's socket
 * directory); and each connection's frames, decoded and validated, handed to the session.
 */
import fs from 'node:fs';
import net from 'node:net';
import { toDisposable, type Disposable } from '../../core/lifetime.js';
import type { Envelope } from '../../core/protocol/control-protocol.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import { validateClientMessage } from '../../core/protocol/validate.js';
import { ClientConn } from './client-conn.js';
import { listenUnix } from './listen-unix.js';
import type { Logger } from '../log.js';

/** Each connection's decode errors beyond this many in a row end it: a peer that only sends garbage. */
export const MAX_CONSECUTIVE_ERRORS = 1000;

/** The listening socket; `dispose()` stops accepting (connections already open finish on their own). */
export interface RunnerServer extends Disposable {
  readonly server: net.Server;
}

/** Listens on `socketPath`; rejects (with the umask restored, nothing left listening) when it cannot. */
export function listen(socketPath: string, onConnection: (socket: net.Socket) => void, log: Logger): Promise<RunnerServer> {
  try {
    fs.unlinkSync(socketPath); // a stale socket from a runner that died
  } catch {
    // None there (the usual case); anything else in the way makes listen fail just below, and that is reported.
  }
  const server = net.createServer(onConnection);
  const oldMask = process.umask(0o177);
  return new Promise((resolve, reject) => {
    const failed = (err: Error) => {
      process.umask(oldMask);
      server.close();
      reject(err);
    };
    server.once('error', failed);
    server.once('listening', () => {
      process.umask(oldMask);
      server.off('error', failed);
      server.on('error', (err) => log(`server error: ${err.message}`));
      try {
        fs.chmodSync(socketPath, 0o600);
      } catch (err) {
        server.close();
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      resolve({ server, dispose: toDisposable(() => server.close()).dispose });
    });
    listenUnix(server, socketPath);
  });
}

/** What a connection is served by. */
export interface ClientHost {
  attach(c: ClientConn): void;
  detach(c: ClientConn): void;
  handle(c: ClientConn, msg: ClientMessage, envelope?: Envelope): void;
}

/** One connection: frames decoded, validated and handed over; a bad frame answered, never fatal. */
export function serve(host: ClientHost, socket: net.Socket, log: Logger): ClientConn {
  const c = new ClientConn(socket, log);
  socket.setEncoding('utf8');
  host.attach(c);
  let errors = 0;
  const onData = (chunk: string) => {
    for (const frame of c.decoder.push(chunk)) {
      if (!frame.ok) {
        c.send({ type: 'error', code: frame.code, message: frame.message });
        if (++errors > MAX_CONSECUTIVE_ERRORS) socket.destroy();
        continue;
      }
      const v = validateClientMessage(frame.value);
      if (!v.ok) {
        c.send({ type: 'error', code: v.code, message: v.message, commandId: v.commandId });
        if (++errors > MAX_CONSECUTIVE_ERRORS) socket.destroy();
        continue;
      }
      errors = 0;
      try {
        host.handle(c, v.message, v.envelope);
      } catch (err) {
        // A bug in one command must not take the session down for everyone.
        log(`error handling ${v.message.type} from client ${c.id}: ${(err as Error).stack ?? String(err)}`);
        c.send({ type: 'error', code: 'invalid_message', message: `internal error handling ${v.message.type}` });
      }
    }
  };
  const onClose = () => host.detach(c);
  socket.on('data', onData);
  socket.on('close', onClose);
  // A reset peer is a normal way to leave: the close that follows detaches it. This listener is
  // never removed: a socket still flushing its goodbye after the runner let go of it may reset too.
  socket.on('error', () => undefined);
  c.hold(
    toDisposable(() => {
      socket.off('data', onData);
      socket.off('close', onClose);
    }),
  );
  return c;
}
