/** `agent-board revive`: bring lost sessions back in place (after a reboot, a logout, a crash), one line each. */
import type { Command } from 'commander';
import { reviveLine, reviveSessions } from '../../client/session/session-revive.js';
import { findSession } from '../../client/session/sessions.js';
import { readUserConfig, userConfigFile } from '../../state/config.js';
import { EXIT, UserError } from '../../state/errors.js';
import { listSessions, type SessionView } from '../../state/host-store.js';
import { cliTime } from '../cli-time.js';
import { getHome } from '../context.js';
import { askSilentRunners } from '../../client/session/silent-runners.js';

interface ReviveOptions { all?: boolean; ifConfigured?: boolean }

export function registerRevive(program: Command): void {
  program
    .command('revive')
    .description('bring lost sessions back in place (after a reboot or a logout): same id, name, room, folder and kind, the conversation resumed where the kind can')
    .argument('[session...]', 'id, name or unique prefix (lost sessions; others are left as they are)')
    .option('-a, --all', 'every lost session of this home')
    .option('--if-configured', 'revive all only when config.json has "autoRevive": true (for a login or boot unit)')
    .action(async (refs: string[], o: ReviveOptions) => {
      if (o.ifConfigured) {
        const { config, errors } = readUserConfig();
        for (const e of errors) process.stderr.write(`agent-board: ${e}\n`);
        if (!config.autoRevive) {
          process.stdout.write(`autoRevive is off in ${userConfigFile()}: nothing revived\n`);
          return;
        }
      } else if (refs.length === 0 && !o.all) {
        throw new UserError('name the sessions to revive, or give --all (see the lost ones with: agent-board ls)', EXIT.usage);
      }
      if ((o.all || o.ifConfigured) && refs.length > 0) throw new UserError('give sessions or --all, not both', EXIT.usage);
      const home = getHome();
      // Every name is found first: a typo revives nothing.
      const time = cliTime();
      // A runner with a stale heartbeat is asked first: one that answers (a full disk) is not lost, one that does not is.
      const all = refs.length ? [] : await askSilentRunners(home, listSessions(home), time.scheduler);
      const chosen: SessionView[] = refs.length ? [...new Map(refs.map((r) => findSession(home, r)).map((s) => [s.id, s])).values()] : all.filter((s) => s.status === 'lost');
      const exited = all.filter((s) => s.status === 'exited').length;
      // Exited sessions are not lost: --all leaves them, and says so once.
      const left = exited ? `${exited} exited ${exited === 1 ? 'session' : 'sessions'} left as ${exited === 1 ? 'it is' : 'they are'} (restart is for them: agent-board restart <session>)` : '';
      if (chosen.length === 0) {
        process.stdout.write(`no session is lost: nothing to do${left ? `; ${left}` : ''}\n`);
        return;
      }
      const outcomes = await reviveSessions(home, chosen, time, (r) => process.stdout.write(`${reviveLine(r)}\n`));
      if (left) process.stdout.write(`${left}\n`);
      // Every failure a sandbox that cannot be made here: 17, as new and restart say it.
      const failed = outcomes.filter((r) => r.kind === 'failed');
      if (failed.length) process.exitCode = failed.every((r) => r.sandbox) ? EXIT.cannotSandbox : EXIT.sessionUnavailable;
    });
}
