/**
 * `agent-board fork`: a new session of the same kind, room and folder (or a
 * new git worktree branched from the source's current HEAD) whose agent
 * continues the source's conversation under a new conversation id, through
 * each CLI's fork flag (src/client/conversation-launch.ts decides the words).
 * A shell, which has no conversation, forks as a fresh shell in its folder.
 */
import type { Time } from '../core/clock.js';
import type { HostRecord } from '../core/protocol/protocol.js';
import { roomOf } from '../core/chat/chat.js';
import { gitSync } from '../state/git.js';
import { listSessions, readHostFile, type SessionView } from '../state/host-store.js';
import { hostFile } from '../state/paths.js';
import { EXIT, UserError } from '../state/errors.js';
import { planConversation, type ConversationOutcome } from './conversation-launch.js';
import { createSession, type NewSessionOptions } from './sessions.js';
import { createWorktreeSession } from './worktree-session.js';

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
  };
  const notes = [plan.note];
  if (o.worktree === undefined) return { record: await createSession(home, opts, time), outcome: plan.outcome, notes };
  const head = gitSync(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: source.cwd });
  if (head.code !== 0) throw new UserError(`${source.name}'s folder ${source.cwd} is not in a git repository with a commit: --worktree needs one`, EXIT.notARepo);
  const made = await createWorktreeSession(home, opts, {
    branch: typeof o.worktree === 'string' ? o.worktree : undefined,
    base: head.stdout.trim(),
    reuse: false,
    onSkipped: o.onSkipped,
  }, time);
  notes.push(`the worktree starts at ${source.name}'s HEAD (${head.stdout.trim().slice(0, 12)}): its uncommitted changes are not carried`);
  return { record: made.record, outcome: plan.outcome, notes };
}
