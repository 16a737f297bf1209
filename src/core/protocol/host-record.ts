/**
 * A session's record, as host.json holds it and as the runner's `hello` and `status` carry it
 * (docs/protocol.md), and the status word in it.
 */
import type { Activity, ActivitySource } from '../agents/activity.js';
import type { SandboxDenial, SandboxSetting } from '../sandbox/sandbox-types.js';
import type { LimitSeen, SessionUsage } from '../usage/usage-types.js';
import type { WorktreeInfo, WorktreeStats } from '../worktree/worktree.js';

/** One try of resume-after-limit, as host.json keeps it (`limitResumes`). */
export interface LimitResumeTry {
  /** When it was typed (ISO). */
  at: string;
  /** The reset of the limit it was typed after (ISO). */
  resetAt: string;
  /** The prompt's command id in the control journal (typed exactly once, across runners). */
  commandId: string;
}

export type SessionStatus = 'starting' | 'running' | 'exited' | 'lost';

/** What host.json holds and what `hello` / `status` carry. */
export interface HostRecord {
  id: string;
  name: string;
  /** The chat room the session belongs to; absent (records from before rooms) means `default`. */
  room?: string;
  agent: string;
  command: string;
  /** Everything the program gets: the kind's flags, the user's extra arguments, the kind's wiring. */
  args: string[];
  /** The user's own extra arguments (agent kinds), kept apart so a restart can rebuild the rest. */
  extraArgs?: string[];
  /** Environment the agent kind adds (its wiring). */
  env?: Record<string, string>;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  /** Last time the runner said it was alive (ISO). */
  heartbeatAt: string;
  /**
   * The runner cannot write this record: the error's code (ENOSPC, EDQUOT, EROFS, EACCES,
   * EPERM: src/core/write-failure.ts), since `cannotWriteSince` (ISO). Only ever in what the runner
   * says (hello, status), never in host.json: the first write that works drops both.
   */
  cannotWrite?: string;
  cannotWriteSince?: string;
  /** Last time the session printed anything (ISO), or null. */
  lastOutputAt: string | null;
  /** The last non-blank line on the session's screen, for one-line previews (at most 200 characters). */
  previewLine?: string;
  runnerPid: number | null;
  /**
   * Who the runner is besides its pid (pids are reused, after a reboot above all): the boot it
   * runs in (/proc/sys/kernel/random/boot_id) and its process's start time (/proc/<pid>/stat,
   * field 22). Written by the runner as it starts; absent in older records and off Linux.
   */
  runnerBootId?: string;
  runnerStartTime?: string;
  childPid: number | null;
  /** The program's start time (as runnerStartTime), so a program a killed runner left behind is told from a reused pid. */
  childStartTime?: string;
  generation: string | null;
  /** Increases with every change the runner makes to this record (reconcile's hostRevision). */
  revision?: number;
  status: SessionStatus;
  /** What the program is doing (src/core/agents/activity.ts), layered from its best source; absent before it says. */
  activity?: Activity;
  activitySource?: ActivitySource;
  /** When the activity last changed (ISO). */
  activitySince?: string;
  /** The session's own git worktree (`new --worktree`), and what its work amounts to (docs/worktrees.md). */
  worktree?: WorktreeInfo;
  worktreeStats?: WorktreeStats;
  /** A worktree's setup command (`--setup`), run in the PTY before the program on the first start only; `startedAt` once it ran. */
  worktreeSetup?: { command: string; startedAt?: string };
  /** Set when the kind's hooks could not be wired where it runs (one line: why, and what happens instead). */
  hooksNote?: string;
  /** In a shell session: the known agent that is the PTY's foreground program now (its status rules apply). */
  foregroundAgent?: string;
  /** The agent's own conversation id, for resume: given by `new`, or learned from its hooks or its exit line (docs/agents.md, "Resume and fork"). */
  resumeId?: string;
  /** A fork's source conversation id (`agent-board fork`): until the fork saved a conversation of its own, a restart forks from it again. */
  forkOf?: string;
  /** What the agent spent so far, read by the runner from its transcript (src/core/usage, docs/usage.md); absent before it is read. */
  usage?: SessionUsage;
  /** The agent said it hit a usage limit, seen at `since` (ISO): the session's state is `limited` until `resetAt`. */
  limited?: LimitSeen & { since: string };
  /** This session's own budget (`new --budget`): in US dollars and/or tokens (input + output + cache). */
  budget?: { usd?: number; tokens?: number };
  /** The session's spending when its local day began (taken by its runner at midnight, or as it started): the day's budget counts from it (src/core/usage/budget.ts). */
  usageDay?: { day: string; usd: number; tokens: number };
  /**
   * A budget the session is under is 80 % used (`warned`) or spent (`over`: new prompts are held), as
   * its runner last measured it, with the one line that says which and how much; absent when ok.
   */
  budgetState?: { level: 'warned' | 'over'; percent: number; line: string };
  /** `new --resume-after-limit`: the prompt the runner types once a limit has reset, at most `perDay` times a day. */
  resumeAfterLimit?: { prompt: string; perDay: number };
  /** The tries resume-after-limit made in the last day (src/core/usage/limit-state.ts), oldest first. */
  limitResumes?: LimitResumeTry[];
  /** `new --sandbox`: the program runs in a sandbox made so (docs/sandbox.md); absent: not sandboxed. */
  sandbox?: SandboxSetting;
  /** The hosts the sandbox's network proxy refused, the most recent last (at most SANDBOX_DENIALS_KEPT). */
  sandboxDenied?: SandboxDenial[];
  cols: number;
  rows: number;
  exitCode: number | null;
  exitSignal: string | null;
  /**
   * The program ended because a user asked for it: the signal the request sent (`SIGTERM` for
   * `kill`, the board's x, `rm --force` and `restart`, which also send SIGHUP and, 4 s later,
   * SIGKILL). Absent when it ended on its own or of a signal nobody asked for (a failure).
   */
  killed?: string;
  scrollback: number;
}
