/**
 * The pure half of "Outliving the login" (docs/sessions.md): the systemd-run command line that
 * puts a runner in a transient user scope, and what a logout does to a session given logind's
 * settings. src/client/session/runner-spawn.ts starts runners with it; `doctor` reports with it.
 */

/** The scope's unit name: the session's name (already unit-safe: src/core/session-ref.ts) and its id, which keeps it unique. */
export function scopeUnitName(name: string, id: string): string {
  return `agent-board-${name.replace(/[^A-Za-z0-9._-]/g, '_')}-${id}.scope`;
}

/**
 * `systemd-run --user --scope ... -- argv`: systemd-run registers itself as the scope's first
 * process over the bus and then execs argv in place (src/run/run.c), so the runner keeps
 * systemd-run's pid and inherits its cwd and environment. --collect unloads the unit when the
 * runner is gone (even failed), --quiet drops the "Running scope as unit" line.
 */
export function systemdRunArgs(unit: string, description: string, argv: readonly string[]): string[] {
  return ['--user', '--scope', '--quiet', '--collect', `--unit=${unit}`, `--description=${description}`, '--', ...argv];
}

/** `AGENT_BOARD_SYSTEMD=0` (or false/no/off) turns the scope off, whatever config.json says. */
export function systemdEnvOff(value: string | undefined): boolean {
  return value !== undefined && /^(0|false|no|off)$/i.test(value.trim());
}

/** `Name=value` lines (systemctl/loginctl `show`) as a map. */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return out;
}

/** systemd's boolean words; null for anything else. */
export function systemdBool(v: string | undefined): boolean | null {
  if (v === undefined) return null;
  if (/^(1|yes|y|true|t|on)$/i.test(v)) return true;
  if (/^(0|no|n|false|f|off)$/i.test(v)) return false;
  return null;
}

/**
 * KillUserProcesses= as logind.conf and its drop-ins set it, `texts` in the order logind reads
 * them (the main file, then the drop-ins by name): the last setting in a [Login] section wins;
 * null when none sets it (then the compiled-in default holds: yes upstream, no on Debian, Ubuntu
 * and most distributions).
 */
export function killUserProcessesFrom(texts: readonly string[]): boolean | null {
  let value: boolean | null = null;
  for (const text of texts) {
    let inLogin = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line.startsWith('[')) inLogin = line === '[Login]';
      else if (inLogin && /^KillUserProcesses\s*=/.test(line)) value = systemdBool(line.slice(line.indexOf('=') + 1).trim()) ?? value;
    }
  }
  return value;
}

/** What a logout does to this machine's sessions, from what `doctor` found out. */
export interface LogoutFacts {
  /** systemd-logind manages logins here. */
  logind: boolean;
  /** The user's systemd manager answers ($XDG_RUNTIME_DIR/systemd/private). */
  userManager: boolean;
  /** The user manager stays after the last login ends (`loginctl enable-linger`); null: unknown. */
  linger: boolean | null;
  /** logind ends a login's processes when it ends; null: unknown. */
  killUserProcesses: boolean | null;
  /** Neither config.json's systemdScope nor AGENT_BOARD_SYSTEMD turned the scope off. */
  scopeWanted: boolean;
}

export interface Verdict {
  status: 'ok' | 'warn';
  message: string;
  fix?: string;
}

/**
 * Which start survives what (docs/sessions.md, "Outliving the login"): a runner in a user scope
 * lives as long as the user manager, which without linger stops at the user's last logout; a
 * runner left in the login's own scope survives only where logind does not kill it.
 */
export function logoutVerdict(f: LogoutFacts, user: string): Verdict {
  const linger = `loginctl enable-linger ${user}`;
  if (!f.logind) return { status: 'ok', message: 'sessions here survive a logout: no systemd-logind, and runners are detached (own session, SIGHUP ignored)' };
  const scoped = f.scopeWanted && f.userManager && f.linger === true;
  if (scoped) return { status: 'ok', message: 'sessions here survive a logout: runners start in a systemd user scope and linger is on' };
  if (f.killUserProcesses === false) {
    return { status: 'ok', message: 'sessions here survive a logout: logind leaves a login\'s processes running (KillUserProcesses=no)' };
  }
  const kills = f.killUserProcesses === true ? 'logind ends a login\'s processes at logout (KillUserProcesses=yes)' : 'logind may end a login\'s processes at logout (KillUserProcesses unknown: systemd\'s default is yes)';
  if (f.linger !== true) return { status: 'warn', message: `sessions may not survive a logout: ${kills} and linger is off, so your user manager stops at your last logout`, fix: `run: ${linger}` };
  if (!f.scopeWanted) return { status: 'warn', message: `sessions may not survive a logout: ${kills} and runners start without a user scope (systemdScope false or AGENT_BOARD_SYSTEMD=0)`, fix: 'set "systemdScope": true in config.json and unset AGENT_BOARD_SYSTEMD' };
  return { status: 'warn', message: `sessions may not survive a logout: ${kills} and no systemd user manager answers (no $XDG_RUNTIME_DIR/systemd/private, or XDG_RUNTIME_DIR unset)`, fix: 'log in again through a PAM login (ssh, a console) so systemd starts your user manager, or check systemctl --user status' };
}
