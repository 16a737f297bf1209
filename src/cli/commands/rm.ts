import fs from 'node:fs';
import type { Command } from 'commander';
import { findSession } from '../../client/sessions.js';
import { EXIT, UserError } from '../../state/errors.js';
import { isPidAlive, listSessions } from '../../state/host-store.js';
import { sessionDir, socketPath } from '../../state/paths.js';
import { getHome } from '../context.js';
import { TERMINATE_GRACE_MS } from '../../core/lifecycle.js';

export function registerRm(program: Command): void {
  program
    .command('rm')
    .description('remove an exited or lost session (with --force, end a running one first)')
    .argument('<session>', 'id, name or unique prefix')
    .option('-f, --force', 'terminate the session if it is still running')
    .action(async (ref: string, o: { force?: boolean }) => {
      const home = getHome();
      const s = findSession(home, ref);
      if (s.status === 'running' || s.status === 'starting') {
        if (!o.force) {
          throw new UserError(`${s.name} is still running; end it with: agent-board kill ${s.name} (or rm --force)`, EXIT.failure);
        }
        // Stop the runner (it terminates its child first) and wait for it to go.
        if (s.runnerPid) process.kill(s.runnerPid, 'SIGTERM');
        const deadline = Date.now() + TERMINATE_GRACE_MS + 3000;
        while (Date.now() < deadline && isPidAlive(s.runnerPid)) await new Promise((r) => setTimeout(r, 50));
        const still = listSessions(home).find((x) => x.id === s.id);
        if (still && isPidAlive(still.runnerPid)) process.kill(still.runnerPid!, 'SIGKILL');
      }
      fs.rmSync(socketPath(home, s.id), { force: true });
      fs.rmSync(sessionDir(home, s.id), { recursive: true, force: true });
      process.stdout.write(`removed ${s.name}\n`);
    });
}
