/** `agent-board kill`: end a session's program (SIGTERM and SIGHUP, SIGKILL later), or send it one signal. */
import type { Command } from 'commander';
import { killSession, type KillOutcome } from '../../client/session/session-actions.js';
import type { SessionView } from '../../state/host-store.js';
import { endedText } from '../../client/session/sessions.js';
import { findSessionAsked } from '../../client/session/silent-runners.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';

export function registerKill(program: Command): void {
  program
    .command('kill')
    .description("end a session's program: SIGTERM and SIGHUP to its process group, SIGKILL after 4 s")
    .argument('<session>', 'id, name or unique prefix')
    .option('-s, --signal <signal>', 'send this signal instead (e.g. INT, HUP, KILL) and do not escalate')
    .action(async (ref: string, o: { signal?: string }) => {
      const home = getHome();
      const s = await findSessionAsked(home, ref, cliTime().scheduler);
      const r = await killSession(home, s, cliTime(), o.signal);
      process.stdout.write(`${describeKill(s.name, s, r)}\n`);
    });
}

function describeKill(name: string, s: SessionView, r: KillOutcome): string {
  switch (r.kind) {
    case 'already-exited':
      return `${name} already ${endedText(s)}`;
    case 'exit':
      // A kill the user asked for reads as one (`killed (SIGHUP)`), not as a failure's exit code.
      return `${name} ${endedText({ exitCode: r.code, exitSignal: r.signal, killed: r.killed })}`;
    case 'still-running':
      return `sent ${r.signal} to ${name}; it is still running`;
    case 'signalled-orphan':
      return `${name} is lost; sent ${r.signal} to its process group ${r.pid}`;
  }
}
