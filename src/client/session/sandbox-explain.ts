/**
 * explain's sandbox lines with this machine's facts (docs/sandbox.md, "Where you see it"): the
 * whole allowlist (its kind's hosts, config.json's, its own: src/core/sandbox/default-hosts.ts)
 * and the places, as the runner's policy finds them (src/core/sandbox/deny-list.ts,
 * agent-state-dirs.ts): what the program may write, what is hidden from it. Read, never made:
 * explain creates no folder.
 */
import os from 'node:os';
import { roomOf } from '../../core/chat/chat.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { agentStateDir, otherAgentStateDirs } from '../../core/sandbox/agent-state-dirs.js';
import { allowHostsFor } from '../../core/sandbox/default-hosts.js';
import { deniedPaths, expandHome } from '../../core/sandbox/deny-list.js';
import { sandboxLines } from '../../core/sandbox/sandbox-text.js';
import { readUserConfig } from '../../state/config.js';
import { listSessions } from '../../state/host-store.js';
import { roomDir } from '../../state/paths.js';

/** `home`: this machine's agent-board home, where `rec` is one of the sessions. */
export function sandboxExplained(home: string, rec: HostRecord, now: number, env: NodeJS.ProcessEnv = process.env): [string, string][] {
  const s = rec.sandbox;
  if (!s) return [];
  const config = readUserConfig(env).config.sandbox;
  const userHome = env.HOME || os.homedir();
  const programEnv = { ...env, ...rec.env };
  const state = agentStateDir(rec.agent, userHome, programEnv);
  // In a worktree, git may move the session's own branch alone (docs/sandbox.md, "What the program may touch").
  const branch = rec.worktree ? [`the branch ${rec.worktree.branch} (no other)`] : [];
  const writable = [rec.cwd, ...branch, ...(state ? [state] : []), roomDir(home, roomOf(rec)), 'its own /tmp'];
  const worktrees = listSessions(home).filter((r) => r.id !== rec.id && r.worktree).map((r) => r.worktree!.path);
  const asked = [...(s.denyRead ?? []), ...config.denyRead];
  const all = deniedPaths(userHome, [...otherAgentStateDirs(rec.agent, userHome, programEnv), ...worktrees, ...asked], rec.cwd);
  // The session's own and config.json's first: the line is cut after a few.
  const own = asked.map((p) => expandHome(p, userHome)).filter((p): p is string => p !== null && all.includes(p));
  const hidden = [...new Set([...own, ...all]), `${home} (but its own session folder)`];
  const hosts = s.network === 'allowlist' ? allowHostsFor(rec.agent, s, config.allowHosts) : null;
  return sandboxLines(rec, now, hosts, { writable, hidden });
}
