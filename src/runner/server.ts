import fs from 'node:fs';
import net from 'node:net';
import { validateClientMessage } from '../core/protocol/validate.js';
import { ClientConn } from './client-conn.js';
import type { Logger } from './log.js';
import type { Session } from './session.js';

/** Each connection's decode errors beyond this many in a row end it: a peer that only sends garbage. */
export const MAX_CONSECUTIVE_ERRORS = 1000;

/**
 * The session's unix socket: 0600, created under a restrictive umask, in a
 * 0700 folder of ours (Node cannot read SO_PEERCRED, so the file modes are
 * the gate, as for tmux's socket directory).
 */
export function listen(session: Session, socketPath: string, log: Logger): Promise<net.Server> {
  try {
    fs.unlinkSync(socketPath); // a stale socket from a runner that died
  } catch {
    // none there
  }
  const server = net.createServer((socket) => serve(session, socket, log));
  const oldMask = process.umask(0o177);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      process.umask(oldMask);
      fs.chmodSync(socketPath, 0o600);
      server.off('error', reject);
      server.on('error', (err) => log(`server error: ${err.message}`));
      resolve(server);
    });
  });
}

function serve(session: Session, socket: net.Socket, log: Logger): void {
  const c = new ClientConn(socket);
  socket.setEncoding('utf8');
  session.attach(c);
  let errors = 0;
  socket.on('data', (chunk: string) => {
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
        session.handle(c, v.message, v.envelope);
      } catch (err) {
        // A bug in one command must not take the session down for everyone.
        log(`error handling ${v.message.type} from client ${c.id}: ${(err as Error).stack ?? err}`);
        c.send({ type: 'error', code: 'invalid_message', message: `internal error handling ${v.message.type}` });
      }
    }
  });
  socket.on('error', () => undefined); // a reset peer is a normal way to leave
  socket.on('close', () => session.detach(c));
}
