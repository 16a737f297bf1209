import type { Command } from 'commander';
import { connectSession, findSession } from '../../client/sessions.js';
import { checkSessionName } from '../../core/session-ref.js';
import { EXIT, UserError } from '../../state/errors.js';
import { listSessions, writeHostFile } from '../../state/host-store.js';
import { hostFile } from '../../state/paths.js';
import { getHome } from '../context.js';

export function registerRename(program: Command): void {
  program
    .command('rename')
    .description('give a session a new name')
    .argument('<session>', 'id, name or unique prefix')
    .argument('<name>', 'the new name')
    .action(async (ref: string, name: string) => {
      const home = getHome();
      const s = findSession(home, ref);
      const bad = checkSessionName(name);
      if (bad) throw new UserError(bad, EXIT.usage);
      if (listSessions(home).some((x) => x.name === name && x.id !== s.id)) {
        throw new UserError(`a session named ${name} already exists`, EXIT.usage);
      }
      if (s.status === 'running' || s.status === 'starting') {
        // The runner owns host.json while it runs; it makes the change.
        const conn = await connectSession(home, s, 'rename');
        await new Promise<void>((resolve, reject) => {
          conn.onMessage((m) => {
            if (m.type === 'status') resolve();
            if (m.type === 'error') reject(new UserError(m.message, EXIT.failure));
          });
          conn.send({ type: 'rename', name });
        });
        conn.destroy();
      } else {
        const { runnerAlive: _alive, ...record } = s;
        writeHostFile(hostFile(home, s.id), { ...record, status: s.status, name });
      }
      process.stdout.write(`renamed ${s.name} to ${name}\n`);
    });
}
