/**
 * `agent-board fork`: a new session of the same kind, room and folder (or a
 * new git worktree branched from the source's current HEAD) whose agent
 * continues the source's conversation under a new conversation id, through
 * each CLI's fork flag (src/client/session/conversation-launch.ts decides the words).
 * A shell, which has no conversation, forks as a fresh shell in its folder.
 */
import type { Time } from '../../core/clock.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { roomOf } from '../../core/chat/chat.js';
import { gitSync } from '../../state/worktree/git.js';
import { listSessions, readHostFile, type SessionView } from '../../state/host-store.js';
import { hostFile, socketPath } from '../../state/paths.js';
import { kindNamed } from '../../state/kind-files.js';
import { EXIT, UserError } from '../../state/errors.js';
import { importedConversation, planConversation, type ConversationOutcome, type ConversationPlan } from './conversation-launch.js';
import { sleep } from './client-time.js';
import { RunnerConnection } from '../link/connection.js';
import { createSession, type NewSessionOptions } from './session-create.js';
import { createWorktreeSession } from '../worktree/worktree-session.js';
import { requireSandbox } from './sandbox-required.js';

/** How long a fork looks for the file its agent imported the conversation into (Gemini without hooks writes it within its first seconds). */
const FORK_ID_WAIT_MS = 8000;
const FORK_ID_POLL_MS = 100;

export interface ForkOptions {
  name?: string;
  /** --worktree [BRANCH]: true for the default branch (`agent/<name>`). */
  worktree?: string | true;
  /** Told each file `.worktreeinclude` left out, one line each. */
  onSkipped?: (line: string) => void;
}

export interface Forked {
  record: HostRecord;
  outcome: ConversationOutcome;
  /** One line each: what became of the conversation, and what a worktree fork did not carry. */
  notes: string[];
}

/** `<name>-fork-1`, `-fork-2`, ...: the first not taken. */
export function forkName(source: string, taken: ReadonlySet<string>): string {
  for (let i = 1; ; i++) if (!taken.has(`${source}-fork-${i}`)) return `${source}-fork-${i}`;
}

export async function forkSession(home: string, s: SessionView, o: ForkOptions, time: Time): Promise<Forked> {
  // The record as its runner keeps it now (the conversation id a hook just told), else the view.
  const { runnerAlive: _alive, ...source } = { ...s, ...readHostFile(hostFile(home, s.id)) };
  // A sandboxed source forks into the same sandbox, or not at all (before anything is made).
  if (source.sandbox) await requireSandbox(source.sandbox, source.cwd, time.scheduler);
  const plan = planConversation(source, { mode: 'fork' });
  const name = o.name ?? forkName(source.name, new Set(listSessions(home).map((x) => x.name)));
  const own = source.extraArgs !== undefined;
  const opts: NewSessionOptions = {
    name,
    command: source.command,
    // A program of the kind's own gets its words again; a shell (or any command line) its argv.
    args: own ? [] : source.args,
    words: own ? source.extraArgs : undefined,
    cwd: source.cwd,
    cols: source.cols,
    rows: source.rows,
    agent: source.agent,
    room: roomOf(source),
    scrollback: source.scrollback,
    conversation: { words: plan.words, id: plan.conversationId },
    // The fork keeps the source's own budget (a budget of its own: its spending starts at nothing),
    // and carries on after a usage limit as its source does (its tries are its own).
    extra: {
      ...(plan.outcome === 'forked' ? { forkOf: source.resumeId } : {}),
      ...(source.budget ? { budget: source.budget } : {}),
      ...(source.resumeAfterLimit ? { resumeAfterLimit: source.resumeAfterLimit } : {}),
      // Its sandbox as it is; the hosts the source was refused are the source's.
      ...(source.sandbox ? { sandbox: source.sandbox } : {}),
    },
  };
  const notes = [plan.note];
  const since = time.clock.now();
  if (o.worktree === undefined) {
    const record = await createSession(home, opts, time);
    return { record, outcome: plan.outcome, notes: [...notes, ...(await learnForkId(home, record, plan, since, time))] };
  }
  const head = gitSync(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: source.cwd });
  if (head.code !== 0) throw new UserError(`${source.name}'s folder ${source.cwd} is not in a git repository with a commit: --worktree needs one`, EXIT.notARepo);
  const made = await createWorktreeSession(home, opts, {
    branch: typeof o.worktree === 'string' ? o.worktree : undefined,
    base: head.stdout.trim(),
    reuse: false,
    onSkipped: o.onSkipped,
  }, time);
  notes.push(`the worktree starts at ${source.name}'s HEAD (${head.stdout.trim().slice(0, 12)}): its uncommitted changes are not carried`);
  return { record: made.record, outcome: plan.outcome, notes: [...notes, ...(await learnForkId(home, made.record, plan, since, time))] };
}

/**
 * A fork whose new id only its hooks would name (Gemini's --session-file), where
 * they are not wired: the id is read off the file the agent imported the
 * conversation into, and told to the runner as its SessionStart hook would.
 * Returns the line to print, if any.
 */
async function learnForkId(home: string, record: HostRecord, plan: ConversationPlan, since: number, time: Time): Promise<string[]> {
  if (plan.outcome !== 'forked' || plan.conversationId || !record.hooksNote || !plan.file) return [];
  const rules = kindNamed(record.agent).conversation;
  const deadline = time.clock.now() + FORK_ID_WAIT_MS;
  let id = importedConversation(rules, plan.file, since);
  while (!id && time.clock.now() < deadline) {
    await sleep(time.scheduler, FORK_ID_POLL_MS);
    id = importedConversation(rules, plan.file, since);
  }
  if (!id) return [`its new conversation id is not known (its hooks are not wired, and no imported file showed within ${FORK_ID_WAIT_MS / 1000} s): a restart of it starts afresh`];
  const conn = await RunnerConnection.open(socketPath(home, record.id), { client: 'fork', scheduler: time.scheduler });
  try {
    const told = new Promise<void>((resolve) => {
      const listening = conn.onMessage((m) => {
        if (m.type === 'status' || m.type === 'error') (listening.dispose(), resolve());
      });
    });
    const start = Object.entries(kindNamed(record.agent).hookEvents).find(([, v]) => v === 'session')?.[0] ?? 'SessionStart';
    conn.send({ type: 'hook', kind: record.agent, event: start, sessionId: id });
    conn.send({ type: 'status' });
    await told;
  } finally {
    conn.dispose();
  }
  return [`its new conversation is ${id} (read off the file ${record.agent} imported it into: its hooks are not wired)`];
}
