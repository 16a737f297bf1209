/**
 * How a session's runner process is started (docs/sessions.md, "Outliving the login"): where a
 * systemd user manager answers and either linger keeps it past the last logout or logind is set to
 * end a login's processes (KillUserProcesses=yes), through `systemd-run --user --scope`, out of
 * the login's scope; elsewhere (and when that fails) detached (setsid) as before. Deciding costs a
 * few stats and reads and no process: the manager's private socket, the linger flag, logind.conf.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Time } from '../../core/clock.js';
import { isoTime } from '../../core/iso-time.js';
import { toDisposable, type Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { scopeUnitName, systemdEnvOff, systemdRunArgs } from '../../core/systemd-scope.js';
import { readUserConfig } from '../../state/config.js';
import { configuredKillUserProcesses, lingerFile } from './logind-files.js';
import { readHostFile } from '../../state/host-store.js';
import { hostFile, runnerLog } from '../../state/paths.js';
import { writing } from '../../state/write-errors.js';
import { findProgram } from '../../state/process/find-program.js';
import { startDetached } from '../../state/process/start.js';

/**
 * The user manager's own socket, there when systemd runs a manager for us (systemd(1), "--user").
 * Null without $XDG_RUNTIME_DIR (su, sudo, cron): `systemd-run --user` cannot find the manager then either.
 */
export function userManagerSocket(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? path.join(env.XDG_RUNTIME_DIR, 'systemd', 'private') : null;
}

const exists = (file: string | null) => file !== null && fs.existsSync(file);

export type ScopeChoice = { scope: true; systemdRun: string } | { scope: false; why: string };

/** Whether this start goes through systemd-run, and if not why (in the order a user would check). */
export function scopeChoice(env: NodeJS.ProcessEnv = process.env): ScopeChoice {
  if (systemdEnvOff(env.AGENT_BOARD_SYSTEMD)) return { scope: false, why: 'AGENT_BOARD_SYSTEMD=0' };
  if (!exists(userManagerSocket(env))) return { scope: false, why: 'no systemd user manager' };
  // Without linger the user manager stops at the last logout and takes its scopes along, while a
  // runner left in the login's scope survives where KillUserProcesses=no, and ends with that login
  // where it is yes: without linger the scope helps only where logind is set to kill.
  if (!fs.existsSync(lingerFile(env)) && configuredKillUserProcesses(env) !== true) return { scope: false, why: 'linger is off' };
  if (!readUserConfig(env).config.systemdScope) return { scope: false, why: 'config.json: systemdScope false' };
  const systemdRun = findProgram('systemd-run', { env });
  return systemdRun ? { scope: true, systemdRun } : { scope: false, why: 'systemd-run is not on PATH' };
}

export interface RunnerStart {
  home: string;
  record: HostRecord;
  /** The runner's command line: node, its flags, the entry, the id. */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  time: Time;
}

/**
 * Starts the runner; the Disposable stops watching for a failed systemd-run (dispose it once the
 * runner serves). A systemd-run that exits before the runner wrote its pid (no bus, refused, a
 * unit of that name still there) is told in one line of the runner log, and the runner is started
 * plainly: the session never fails for want of a scope.
 */
export function spawnRunner(start: RunnerStart, choice: ScopeChoice = scopeChoice(start.env)): Disposable {
  const [node, ...args] = start.argv as [string, ...string[]];
  if (!choice.scope) {
    detached(node, args, start, 'ignore');
    return toDisposable(() => undefined);
  }
  const { home, record, time } = start;
  const log = runnerLog(home, record.id);
  // systemd-run's own complaint goes to the runner log; after its exec the runner keeps that file as stderr.
  const err = writing("the session's runner log", log, () => fs.openSync(log, 'a', 0o600));
  let child: ChildProcess;
  try {
    child = detached(choice.systemdRun, systemdRunArgs(scopeUnitName(record.name, record.id), `agent-board session ${record.name}`, [node, ...args]), start, err);
  } finally {
    fs.closeSync(err);
  }
  let watching = true;
  const fallBack = (why: string) => {
    if (!watching) return;
    watching = false;
    const line = `systemd-run --user --scope failed (${why}); runner started without a scope: a logout may end this session (docs/sessions.md)`;
    try {
      fs.appendFileSync(log, `${isoTime(time.clock.now())} ${line}\n`, { mode: 0o600 });
    } catch {
      // A full disk: the line is lost, the runner is not; it starts all the same.
    }
    detached(node, args, start, 'ignore');
  };
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    // The runner itself (systemd-run's exec) ending is the runner's business, told in its log.
    if (readHostFile(hostFile(home, record.id))?.runnerPid === child.pid) return;
    if (code !== 0 || signal) fallBack(signal ? `killed by ${signal}` : `exit code ${code}`);
  };
  const onError = (e: Error) => fallBack(e.message);
  child.on('exit', onExit);
  child.on('error', onError);
  return toDisposable(() => {
    watching = false;
    child.off('exit', onExit);
    child.off('error', onError);
  });
}

/** In a session of its own (setsid: no controlling terminal, its own process group), not waited for. */
function detached(command: string, args: readonly string[], start: RunnerStart, stderr: 'ignore' | number): ChildProcess {
  return startDetached(command, args, { cwd: start.record.cwd, env: start.env, stderr });
}
