import net from 'node:net';
import type { Command } from 'commander';
import { describeExit, findSession, lostReason } from '../../client/session/sessions.js';
import { EXIT, UserError } from '../../state/errors.js';
import { socketPath } from '../../state/paths.js';
import { getHome } from '../context.js';

/**
 * `agent-board bridge <session>`: the far end of `--host`. A client on another
 * machine runs it through ssh and speaks the protocol over its stdio; the
 * bridge copies bytes both ways and understands none of them, so it never
 * needs to change with the protocol. Its stdout carries the socket's bytes
 * only; every complaint goes to stderr with an exit code (docs/cli.md).
 */
export function registerBridge(program: Command): void {
  program
    .command('bridge')
    .description("join stdin and stdout to a session's socket, raw (used by --host over ssh)")
    .argument('<session>', 'id, name or unique prefix')
    .action(async (ref: string) => bridge(ref));
}

async function bridge(ref: string): Promise<void> {
  const home = getHome();
  const s = findSession(home, ref);
  if (s.status === 'lost') {
    throw new UserError(`session ${s.name} is ${lostReason(s)}`, EXIT.sessionUnavailable);
  }
  if (s.status === 'exited') throw new UserError(`session ${s.name} has exited (${describeExit(s)})`, EXIT.sessionUnavailable);
  const sock = await new Promise<net.Socket>((resolve, reject) => {
    const c = net.createConnection(socketPath(home, s.id));
    c.once('connect', () => {
      c.off('error', reject);
      resolve(c);
    });
    c.once('error', reject);
  }).catch((err: Error) => {
    throw new UserError(`cannot reach session ${s.name}: ${err.message}`, EXIT.sessionUnavailable);
  });
  await pipeBoth(sock, process.stdin, process.stdout);
}

/**
 * stdin -> socket and socket -> stdout until the runner closes. stdin's end
 * ends the socket (the runner then closes its side too); the reader going
 * away (EPIPE on stdout) drops the socket.
 */
function pipeBoth(sock: net.Socket, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: Error | null = null;
    sock.on('error', (err) => (failure = err));
    output.on('error', () => sock.destroy());
    input.pipe(sock);
    sock.pipe(output, { end: false });
    sock.once('close', () => {
      // Let go of stdin so nothing keeps the process alive once stdout is flushed.
      input.unpipe(sock);
      input.destroy();
      if (failure && (failure as NodeJS.ErrnoException).code !== 'EPIPE') {
        reject(new UserError(`lost the connection to the session: ${failure.message}`, EXIT.sessionUnavailable));
      } else resolve();
    });
  });
}
