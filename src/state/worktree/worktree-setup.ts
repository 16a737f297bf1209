/**
 * A worktree's setup command (`--setup`, or `.agent-board.json`'s
 * `worktree.setup`): it runs in the session's PTY before the program, on
 * the first start only, its output in the session. host.json keeps the
 * program's own command and args (restart, the kind and the wiring go by
 * them) and says in its `worktreeSetup` whether the setup ran.
 */
import type { HostRecord } from '../../core/protocol/host-record.js';


/** The $0 of the wrapper shell: what `ps` shows while the setup runs. */
export const SETUP_ARGV0 = 'agent-board-setup';

/**
 * The wrapper: runs the setup (in a subshell, so its `exit` ends only it),
 * says in the session when it failed, then execs the program in its place
 * (same pid, so the PTY's child is the program from then on).
 */
const WRAPPER = [
  'printf "agent-board: setup: %s\\n" "$1"',
  '(eval "$1")',
  'c=$?',
  'if [ "$c" -ne 0 ]; then printf "agent-board: setup failed (exit code %s); starting the program anyway\\n" "$c"; fi',
  'shift',
  'exec "$@"',
].join('\n');

/** What the PTY starts: the program itself, or the wrapper around it when a setup has not run yet. */
export function launchWithSetup(rec: HostRecord): { command: string; args: string[]; setup: string | null } {
  const s = rec.worktreeSetup;
  if (!s || s.startedAt) return { command: rec.command, args: rec.args, setup: null };
  return { command: '/bin/sh', args: ['-c', WRAPPER, SETUP_ARGV0, s.command, rec.command, ...rec.args], setup: s.command };
}
