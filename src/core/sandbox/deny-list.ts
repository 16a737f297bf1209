/**
 * What a sandboxed program may not read by default (docs/sandbox.md "What the program may
 * touch"): the user's keys and cloud credentials. The runner adds the other kinds' state
 * folders, the other sessions' worktrees, agent-board's home, the user's runtime folder and
 * config.json's and the session's own `denyRead`.
 */
import { isWithin } from './sandbox-mounts.js';

/** Under $HOME: ssh and gpg keys, cloud and registry credentials, password stores. */
export const DEFAULT_DENIED_IN_HOME: readonly string[] = [
  '.ssh', '.aws', '.config/gcloud', '.gnupg', '.netrc', '.git-credentials', '.config/gh', '.kube', '.azure', '.docker', '.password-store',
];

/** Docker's API socket: root on the machine for whoever can reach it. */
export const DOCKER_SOCKETS: readonly string[] = ['/run/docker.sock', '/var/run/docker.sock'];

/** The environment a sandboxed program does not get: agents that would sign for it outside (ssh, gpg) and the user's bus. */
export const ENV_DROPPED: readonly string[] = ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS'];

/** `~` and `~/x` made absolute against $HOME; relative paths (not allowed in config) are dropped. */
export function expandHome(p: string, userHome: string): string | null {
  const full = p === '~' ? userHome : p.startsWith('~/') ? `${userHome}/${p.slice(2)}` : p;
  if (!full.startsWith('/')) return null;
  const parts: string[] = [];
  for (const part of full.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/**
 * The deny list, absolute: the defaults under $HOME and the extra ones given, less any that
 * holds the session's own folder (hiding it would hide the work; a child of it stays hidden).
 */
export function deniedPaths(userHome: string, extra: readonly string[], cwd: string): string[] {
  const all = [...DEFAULT_DENIED_IN_HOME.map((d) => `${userHome}/${d}`), ...DOCKER_SOCKETS, ...extra];
  const out: string[] = [];
  for (const p of all) {
    const abs = expandHome(p, userHome);
    if (abs && abs !== '/' && !isWithin(cwd, abs) && !out.includes(abs)) out.push(abs);
  }
  return out;
}
