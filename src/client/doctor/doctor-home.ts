/** `doctor`'s checks of this install: the state home, the runner bundle, config.json, lost sessions. */
import fs from 'node:fs';
import { homePath } from '../../state/home.js';
import { readUserConfig, userConfigFile } from '../../state/config.js';
import { listSessions } from '../../state/host-store.js';
import type { Check } from './doctor-check.js';
import { askSilentRunners } from '../session/silent-runners.js';
import type { Scheduler } from '../../core/clock.js';
import { RUNNER_ENTRY } from '../session/runner-start.js';
import { rebuildFix } from '../../state/this-copy.js';

/** The state home: a directory of ours that nobody else can write (what ensurePrivateDir insists on). */
export function homeCheck(env: NodeJS.ProcessEnv): Check {
  const home = homePath(env);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(home);
  } catch {
    return { check: 'home', status: 'ok', message: `${home} does not exist yet: agent-board makes it (0700) at first use` };
  }
  const uid = process.getuid?.() ?? st.uid;
  const mode = (st.mode & 0o777).toString(8);
  if (!st.isDirectory()) return { check: 'home', status: 'fail', message: `${home} is not a directory`, fix: 'remove it, or set AGENT_BOARD_HOME to a directory of yours' };
  if (st.uid !== uid) return { check: 'home', status: 'fail', message: `${home} belongs to uid ${st.uid}, not you (uid ${uid})`, fix: 'set AGENT_BOARD_HOME to a directory of yours' };
  if (st.mode & 0o022) return { check: 'home', status: 'fail', message: `${home} can be written by other users (mode ${mode}): agent-board refuses it`, fix: `chmod 700 ${home}` };
  if (st.mode & 0o077) return { check: 'home', status: 'warn', message: `${home} can be read by other users (mode ${mode}); agent-board makes it 0700 on its next start`, fix: `chmod 700 ${home}` };
  return { check: 'home', status: 'ok', message: `${home} is private (0700, yours)` };
}

export function bundleCheck(): Check {
  return fs.existsSync(RUNNER_ENTRY)
    ? { check: 'bundle', status: 'ok', message: `runner bundle ${RUNNER_ENTRY}` }
    : { check: 'bundle', status: 'fail', message: `${RUNNER_ENTRY} is missing: no session can start`, fix: rebuildFix() };
}

/** config.json's errors, one warn each (a bad entry uses its default: src/core/user-config.ts). */
export function configChecks(env: NodeJS.ProcessEnv): Check[] {
  const { errors } = readUserConfig(env);
  const file = userConfigFile(env);
  if (errors.length === 0) return [{ check: 'config', status: 'ok', message: fs.existsSync(file) ? `${file} is valid` : `no ${file}: the defaults` }];
  return errors.map((message) => ({ check: 'config', status: 'warn', message, fix: `edit ${file} (docs/file-formats.md, "config.json")` }));
}

/** Sessions whose runner is gone (a reboot, a logout, a crash). Only in a home doctor found safe. */
export async function lostCheck(env: NodeJS.ProcessEnv, scheduler: Scheduler): Promise<Check> {
  // A runner with a stale heartbeat that answers is alive (it cannot write: a full disk), not lost.
  const home = homePath(env);
  const lost = (await askSilentRunners(home, listSessions(home), scheduler)).filter((s) => s.status === 'lost');
  if (lost.length === 0) return { check: 'lost', status: 'ok', message: 'no lost sessions' };
  return { check: 'lost', status: 'warn', message: `${lost.length} lost: ${lost.map((s) => s.name).join(', ')}`, fix: 'agent-board revive --all' };
}
