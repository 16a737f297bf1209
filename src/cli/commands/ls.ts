/** `agent-board ls`: the sessions as a table or as JSON, here or on another machine. */
import type { Command } from 'commander';
import { listRemote } from '../../client/remote/remote.js';
import { askSilentRunners } from '../../client/session/silent-runners.js';
import { withFreshCounts } from '../../client/worktree/worktree-counts.js';
import { agentLabel } from '../../core/agents/agent-kinds.js';
import { commandShown } from '../../core/command-shown.js';
import { sessionState, stateLabel, withStateNote } from '../../core/session-state.js';
import { usageCell } from '../../core/usage/usage-text.js';
import { limitedLabel } from '../../core/usage/limit-state.js';
import { worktreeSummary } from '../../core/worktree/worktree.js';
import { sandboxCell } from '../../core/sandbox/sandbox-text.js';
import { listSessions, type SessionView } from '../../state/host-store.js';
import { roomOf } from '../../core/chat/chat.js';
import { getHome } from '../context.js';
import { ago, table } from '../format.js';
import { cliTime } from '../cli-time.js';

export function registerLs(program: Command): void {
  program
    .command('ls')
    .alias('list')
    .description('list sessions')
    .option('--json', 'print JSON, one object per session')
    .option('--host <[user@]host>', 'list the sessions on another machine, over ssh')
    .action(async (o: { json?: boolean; host?: string }) => {
      const time = cliTime();
      // A runner that runs but whose heartbeat is stale on disk is asked before it is called lost (a full disk, or wedged).
      // A worktree session whose runner is gone is counted now: nothing kept its counts fresh since.
      const here = async () => withFreshCounts(getHome(), await askSilentRunners(getHome(), listSessions(getHome()), time.scheduler), time.clock);
      const sessions = o.host ? await listRemote(o.host, time.scheduler) : await here();
      printSessions(sessions, o.json === true, o.host);
    });
}

function printSessions(sessions: SessionView[], json: boolean, host?: string): void {
  if (json) {
    // Records from before rooms have no room: they are in the default one. `state` is what the
    // STATUS column says (src/core/session-state.ts); `status` stays the runner's lifecycle.
    process.stdout.write(JSON.stringify(sessions.map((s) => ({ ...s, room: roomOf(s), state: sessionState(s) })), null, 2) + '\n');
    return;
  }
  if (sessions.length === 0) {
    const where = host ? ` on ${host}` : '';
    process.stdout.write(`no sessions${where}; start one with: agent-board new -- <command>\n`);
    return;
  }
  const now = Date.now();
  // The WORKTREE column only when a session has one (docs/worktrees.md, "What a session shows").
  const worktrees = sessions.some((s) => s.worktree);
  // The USAGE column (tokens and cost, docs/usage.md) once a runner has read a transcript.
  const usage = sessions.some((s) => s.usage);
  // The SANDBOX column only when a session is sandboxed (docs/sandbox.md, "Where you see it").
  const sandboxes = sessions.some((s) => s.sandbox);
  const rows = [['ID', 'NAME', 'AGENT', 'STATUS', 'ROOM', 'PID', 'SIZE', 'AGE', 'ACTIVE', ...(sandboxes ? ['SANDBOX'] : []), ...(worktrees ? ['WORKTREE'] : []), ...(usage ? ['USAGE'] : []), 'COMMAND']];
  for (const s of sessions) {
    rows.push([
      s.id,
      s.name,
      agentLabel(s),
      // A limited session with the time left before its reset, as the board's row says it.
      s.limited && sessionState(s) === 'limited' ? withStateNote(limitedLabel(s.limited, now), s) : stateLabel(s),
      roomOf(s),
      s.childPid ? String(s.childPid) : '-',
      `${s.cols}x${s.rows}`,
      ago(s.createdAt, now),
      ago(s.lastOutputAt, now),
      ...(sandboxes ? [s.sandbox ? sandboxCell(s.sandbox) : '-'] : []),
      ...(worktrees ? [s.worktree ? worktreeSummary(s.worktree, s.worktreeStats) : '-'] : []),
      ...(usage ? [usageCell(s.usage)] : []),
      commandShown(s).slice(0, 40),
    ]);
  }
  process.stdout.write(table(rows) + '\n');
}
