import type { Command } from 'commander';
import type { RunnerConnection } from '../../client/connection.js';
import { connectSession, describeExit, findSession } from '../../client/sessions.js';
import { TERMINATE_GRACE_MS } from '../../core/lifecycle.js';
import { EXIT, UserError } from '../../state/errors.js';
import { isPidAlive } from '../../state/host-store.js';
import { getHome } from '../context.js';

export function registerKill(program: Command): void {
  program
    .command('kill')
    .description("end a session's program: SIGTERM to its process group, SIGKILL after 4 s")
    .argument('<session>', 'id, name or unique prefix')
    .option('-s, --signal <signal>', 'send this signal instead (e.g. INT, HUP, KILL) and do not escalate')
    .action(async (ref: string, o: { signal?: string }) => {
      const home = getHome();
      const s = findSession(home, ref);
      if (s.status === 'exited') {
        process.stdout.write(`${s.name} already exited (${describeExit(s)})\n`);
        return;
      }
      if (s.status === 'lost') {
        // The runner is gone; its child may not be. Do what the runner would have done.
        if (s.childPid && isPidAlive(s.childPid)) {
          process.kill(-s.childPid, (o.signal ? normalize(o.signal) : 'SIGTERM') as NodeJS.Signals);
          process.stdout.write(`${s.name} is lost; sent ${o.signal ? normalize(o.signal) : 'SIGTERM'} to its process group ${s.childPid}\n`);
          return;
        }
        throw new UserError(`${s.name} is lost and its program is not running; remove it with: agent-board rm ${s.name}`, EXIT.sessionUnavailable);
      }
      const conn = await connectSession(home, s, 'kill');
      // A plain terminate may take the whole grace period; another signal may not end it at all.
      const escalates = !o.signal || ['SIGTERM', 'SIGKILL'].includes(normalize(o.signal));
      const exit = waitForExit(conn, escalates ? TERMINATE_GRACE_MS + 3000 : SIGNAL_SETTLE_MS);
      conn.send({ type: 'terminate', signal: o.signal });
      const result = await exit;
      conn.destroy();
      if (result.kind === 'error') throw new UserError(result.message, EXIT.usage);
      if (result.kind === 'exit') {
        process.stdout.write(`${s.name} exited (${describeExit({ exitCode: result.code, exitSignal: result.signal })})\n`);
      } else if (o.signal) {
        process.stdout.write(`sent ${normalize(o.signal)} to ${s.name}; it is still running\n`);
      } else {
        throw new UserError(`${s.name} did not exit; its runner may be stuck (see agent-board ls)`, EXIT.failure);
      }
    });
}

/** After a signal that need not end the program, how long to wait to report whether it did. */
const SIGNAL_SETTLE_MS = 500;

const normalize = (sig: string) => sig.toUpperCase().replace(/^(SIG)?/, 'SIG');

type KillResult = { kind: 'exit'; code: number | null; signal: string | null } | { kind: 'error'; message: string } | { kind: 'timeout' };

function waitForExit(conn: RunnerConnection, timeoutMs: number): Promise<KillResult> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
    conn.onMessage((m) => {
      if (m.type === 'exit') {
        clearTimeout(timer);
        resolve({ kind: 'exit', code: m.code, signal: m.signal });
      } else if (m.type === 'error') {
        clearTimeout(timer);
        resolve({ kind: 'error', message: m.message });
      }
    });
  });
}
