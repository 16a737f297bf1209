/**
 * `doctor`'s logout and reboot checks (docs/sessions.md): what logind does to a login's processes
 * (loginctl, else logind.conf), whether the user manager answers and lingers, whether runners
 * start in a user scope, and whether a login unit brings lost sessions back after a reboot.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scheduler } from '../../core/clock.js';
import { logoutVerdict, parseProperties, systemdBool, systemdEnvOff } from '../../core/systemd-scope.js';
import { readUserConfig } from '../../state/config.js';
import { runTool, type Check } from './doctor-check.js';
import { configuredKillUserProcesses, lingerFile } from '../session/logind-files.js';
import { findProgram } from '../../state/process/find-program.js';
import { userManagerSocket } from '../session/runner-spawn.js';

export async function logoutCheck(env: NodeJS.ProcessEnv, scheduler: Scheduler): Promise<Check> {
  const user = env.USER || os.userInfo().username;
  // With no session named, loginctl shows the manager's own properties: logind answers, or there is none.
  const manager = await runTool('loginctl', ['show-session', '-p', 'KillUserProcesses'], env, scheduler);
  // (loginctl ships with logind: where it does not answer, no logind manages logins here.)
  const logind = manager.ok;
  const killUserProcesses = systemdBool(parseProperties(manager.stdout).get('KillUserProcesses')) ?? (logind ? configuredKillUserProcesses(env) : null);
  // "not logged in or lingering" fails show-user: then the flag file answers.
  const shown = logind ? await runTool('loginctl', ['show-user', user, '-p', 'Linger'], env, scheduler) : null;
  const linger = shown?.ok ? systemdBool(parseProperties(shown.stdout).get('Linger')) : logind ? fs.existsSync(lingerFile(env, user)) : null;
  let userManager = false;
  const socket = userManagerSocket(env);
  if (socket && fs.existsSync(socket)) {
    const state = await runTool('systemctl', ['--user', 'is-system-running'], env, scheduler);
    // degraded (a failed unit) exits non-zero but the manager answers.
    userManager = /^(running|degraded|starting|initializing|maintenance)\b/.test(state.stdout.trim()) && findProgram('systemd-run', { env }) !== null;
  }
  const scopeWanted = !systemdEnvOff(env.AGENT_BOARD_SYSTEMD) && readUserConfig(env).config.systemdScope;
  return { check: 'logout', ...logoutVerdict({ logind, userManager, linger, killUserProcesses, scopeWanted }, user) };
}

/** The user's own unit folder, where a login or boot unit of theirs lives. */
function userUnitDir(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(config, 'systemd', 'user');
}

/** The user units that run `agent-board revive --if-configured`, and whether a target wants each (enabled). */
function reviveUnits(env: NodeJS.ProcessEnv): { name: string; enabled: boolean }[] {
  const dir = userUnitDir(env);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return []; // no user units at all
  }
  const wants = names.filter((n) => n.endsWith('.wants'));
  const out: { name: string; enabled: boolean }[] = [];
  for (const name of names.filter((n) => n.endsWith('.service'))) {
    let text = '';
    try {
      text = fs.readFileSync(path.join(dir, name), 'utf8');
    } catch {
      continue; // unreadable: not one we can judge
    }
    if (!/^\s*ExecStart\s*=.*\brevive\b.*--if-configured/m.test(text)) continue;
    out.push({ name, enabled: wants.some((w) => fs.existsSync(path.join(dir, w, name))) });
  }
  return out;
}

export function rebootCheck(env: NodeJS.ProcessEnv): Check {
  const { autoRevive } = readUserConfig(env).config;
  const units = reviveUnits(env);
  const enabled = units.find((u) => u.enabled);
  const fallback = 'after a reboot run: agent-board revive --all';
  const howTo = 'or set "autoRevive": true in config.json and enable a login unit that runs agent-board revive --if-configured (docs/cli.md, "After a reboot or a logout")';
  if (autoRevive && enabled) return { check: 'reboot', status: 'ok', message: `a reboot ends every runner; after it, sessions come back at login (autoRevive on, ${enabled.name} runs agent-board revive --if-configured)` };
  if (!autoRevive) {
    const unit = units.length ? `; ${units.map((u) => u.name).join(', ')} would revive them, but autoRevive is off` : '';
    return { check: 'reboot', status: 'warn', message: `a reboot ends every runner and nothing brings sessions back${unit}`, fix: `${fallback}, ${howTo}` };
  }
  if (units.length) return { check: 'reboot', status: 'warn', message: `a reboot ends every runner; ${units[0]!.name} would revive them but is not enabled`, fix: `systemctl --user enable ${units[0]!.name}` };
  return { check: 'reboot', status: 'warn', message: `a reboot ends every runner; autoRevive is on but no unit in ${userUnitDir(env)} runs agent-board revive --if-configured`, fix: `${fallback}, or add the unit of docs/cli.md, "After a reboot or a logout"` };
}
