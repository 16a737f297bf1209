/** The agent-board home (where its state lives) and the private folders in it, made and checked. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXIT, UserError } from './errors.js';
import { makeDirs, writing } from './write-errors.js';

/** Where agent-board keeps its state: AGENT_BOARD_HOME, else the XDG state dir. */
export function homePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGENT_BOARD_HOME) return path.resolve(env.AGENT_BOARD_HOME);
  const state = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'agent-board');
}

/**
 * Makes `dir` (mode 0700) or checks the one that is there, the way tmux checks
 * its socket directory: a real directory, ours, that nobody else can write.
 * Group/other read bits on our own directory are taken away rather than refused.
 */
export function ensurePrivateDir(dir: string, what = 'state directory'): string {
  writing(`the ${what}`, dir, () => makeDirs(dir));
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.() ?? st.uid;
  if (!st.isDirectory()) {
    throw new UserError(`refusing ${what} ${dir}: it is not a directory`, EXIT.unsafeHome);
  }
  if (st.uid !== uid) {
    throw new UserError(`refusing ${what} ${dir}: it belongs to uid ${st.uid}, not you (uid ${uid}); set AGENT_BOARD_HOME to a directory of yours`, EXIT.unsafeHome);
  }
  if (st.mode & 0o022) {
    throw new UserError(`refusing ${what} ${dir}: other users can write to it (mode ${(st.mode & 0o777).toString(8)}); run: chmod 700 ${dir}`, EXIT.unsafeHome);
  }
  if (st.mode & 0o077) writing(`the ${what}`, dir, () => fs.chmodSync(dir, 0o700));
  return dir;
}

/** The home, made and checked. */
export function ensureHome(env: NodeJS.ProcessEnv = process.env): string {
  return ensurePrivateDir(homePath(env), 'agent-board home');
}
