/**
 * The places a sandboxed session's mounts are made of, found on this machine: its kind's state
 * folder (made when missing: the program must be able to save its conversation), the other kinds'
 * folders, the other sessions' worktrees (from their host records), the user's runtime folder,
 * and what is at a path (the pure plan drops what does not exist).
 */
import fs from 'node:fs';
import { agentStateDir, otherAgentStateDirs } from '../../core/sandbox/agent-state-dirs.js';
import { deniedPaths } from '../../core/sandbox/deny-list.js';
import { isWithin, type PathType } from '../../core/sandbox/sandbox-mounts.js';
import type { HostRecord } from '../../core/protocol/host-record.js';

export function pathType(p: string): PathType {
  try {
    return fs.statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

export interface SandboxPlaces {
  stateDir: string | null;
  denied: string[];
  runtimeDir: string | null;
}

/**
 * `env`: the program's environment (its kind's folder override is there); `records`: every
 * session's host record (the other worktrees); `extraDenied`: config.json's and the session's `denyRead`.
 */
export function sandboxPlaces(rec: HostRecord, userHome: string, env: Readonly<Record<string, string | undefined>>, records: readonly HostRecord[], extraDenied: readonly string[]): SandboxPlaces {
  const stateDir = agentStateDir(rec.agent, userHome, env);
  if (stateDir) fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const worktrees = records
    .filter((r) => r.id !== rec.id && r.worktree)
    .map((r) => r.worktree!.path)
    .filter((p) => !isWithin(rec.cwd, p));
  const denied = deniedPaths(userHome, [...otherAgentStateDirs(rec.agent, userHome, env), ...worktrees, ...extraDenied], rec.cwd);
  // The user's systemd manager (`systemd-run --user` runs anything outside), D-Bus and ssh-agent live here.
  const runtimeDir = env.XDG_RUNTIME_DIR || `/run/user/${process.getuid?.() ?? 0}`;
  return { stateDir, denied, runtimeDir };
}
