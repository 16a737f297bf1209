/** The board's real actions (BoardActions of src/client/feed/board-api.ts), through the same client library as the CLI. */
import { chatIdentity, postChat, type ChatIdentity } from '../chat/chat-participant.js';
import type { Time } from '../../core/clock.js';
import { resumeSettingFor, setResumeAfterLimit } from '../session/session-resume.js';
import { killSession, removeSessionReporting, renameSession } from '../session/session-actions.js';
import { connectRemoteRow, killRemote, remoteOnly } from '../remote/host-actions.js';
import { remoteRoom } from '../remote/host-rows.js';
import { remoteChatPost } from '../remote/remote-chat.js';
import { formRequest, kindChoices, planNewSession, startNewSession } from '../session/new-session.js';
import { sandboxExplained } from '../session/sandbox-explain.js';
import { sandboxLines } from '../../core/sandbox/sandbox-text.js';
import { reviveRemote } from '../remote/remote-revive.js';
import { reviveSessions } from '../session/session-revive.js';
import { connectSession, findSession } from '../session/sessions.js';
import { worktreeDiff } from '../worktree/worktree-diff.js';
import { checkSenderName, CONTINUE_COMMAND } from '../../core/chat/chat.js';
import { EXIT, UserError } from '../../state/errors.js';
import type { BoardActions, ChatPosted } from '../feed/board-api.js';
import { sessionIo } from './session-io.js';

/** The size of a session the board starts when the board does not say its terminal's (the tests'). */
const DEFAULT_NEW_SIZE = { cols: 80, rows: 24 };

/** Anything else (a file system error, a bug) still reaches the footer as one line. */
async function oneLine<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UserError) throw err;
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';
    throw new UserError(message, EXIT.failure);
  }
}

/**
 * Who the board posts as: the human at the terminal, named $USER when that
 * is a valid sender name and no session's, else `human`. Inside a session
 * (the board run in one) it is that session, an agent, as for the CLI: the
 * loop guard counts on agents never posting as humans.
 */
export function boardChatIdentity(home: string, env: NodeJS.ProcessEnv): ChatIdentity {
  const user = env.USER;
  if (!env.AGENT_BOARD_SESSION && user && checkSenderName(user) === null) {
    try {
      return chatIdentity(home, env, { as: user });
    } catch {
      // a session has that name: the default human name below
    }
  }
  return chatIdentity(home, env);
}

async function postFromBoard(home: string, env: NodeJS.ProcessEnv, room: string, text: string): Promise<ChatPosted> {
  const who = boardChatIdentity(home, env);
  if (who.kind !== 'human' && text.trim() === CONTINUE_COMMAND) {
    throw new UserError(`only a human can resume a room, and this board runs inside session ${who.name}`, EXIT.usage);
  }
  const r = await postChat(home, who, room, text);
  return { id: r.record.id, event: r.system?.event ?? null, paused: r.guard.paused };
}

/** What the board does to sessions and chats, through the same client library as the CLI. */
/**
 * `hosts`: the board's other machines; a room `host/room` is theirs only when `host` is one of them.
 * `newSize`: the board's terminal, the size a session it starts gets (as `new` at a terminal does),
 * so its first attach from here needs no resize and the preview shows it whole.
 */
export function createBoardActions(
  home: string,
  time: Time,
  env: NodeJS.ProcessEnv = process.env,
  hosts: readonly string[] = [],
  newSize: () => { cols: number; rows: number } = () => DEFAULT_NEW_SIZE,
): BoardActions {
  return {
    newKinds: (cwd) => kindChoices(cwd),
    planNew: (input, taken) => {
      const req = formRequest(input, newSize());
      if ('error' in req) return { kind: input.kind, name: input.name ?? '', branch: null, runs: '', line: '', problem: req.error, repo: null, sandbox: null };
      const { opts: _, ...plan } = planNewSession(req, { taken, from: process.cwd() });
      return plan;
    },
    // What `agent-board new` runs: the same plan, in place or in a new worktree (src/client/session/new-session.ts).
    create: (input) =>
      oneLine(async () => {
        const req = formRequest(input, newSize());
        if ('error' in req) throw new UserError(req.error, EXIT.usage);
        return startNewSession(home, req, planNewSession(req, { taken: [] }), time);
      }),
    // This machine's allowlist and places (src/client/session/sandbox-explain.ts); another machine's row in words.
    sandboxLines: (s, now) => (s.host ? sandboxLines(s, now) : sandboxExplained(home, s, now, env)),
    kill: (s) => oneLine(() => (s.host ? killRemote(s, time) : killSession(home, s, time))),
    diff: (s) =>
      oneLine(async () => {
        if (s.host) throw remoteOnly(s, 'reviewing', 'diff');
        if (!s.worktree) throw new UserError(`${s.name} has no worktree: D reviews sessions started with new --worktree`, EXIT.notARepo);
        return (await worktreeDiff(s.worktree)).model;
      }),
    // Like `agent-board rm` without --force: a running session must be killed first.
    remove: (s) => oneLine(async () => (s.host ? Promise.reject(remoteOnly(s, 'removing', 'rm')) : removeSessionReporting(home, s, time))),
    resumeAfterLimit: (s, on) =>
      oneLine(async () => {
        if (s.host) throw remoteOnly(s, 'changing resume-after-limit of', 'new --resume-after-limit');
        const set = on ? resumeSettingFor(s.agent, env) : null;
        await setResumeAfterLimit(home, s, set, time);
        return set;
      }),
    rename: (s, name) => oneLine(async () => (s.host ? Promise.reject(remoteOnly(s, 'renaming', 'rename')) : renameSession(home, s, name, time))),
    // A remote row's room (`host/room`, the board's --host) is posted to there, as the human at this board.
    postChat: (room, text) =>
      oneLine(() => {
        // A room of another machine only when that machine is on this board: anything else is a
        // local room name (and a bad one is said so here, never sent to ssh as a host).
        const far = remoteRoom(room);
        if (!far || !hosts.includes(far.host)) return postFromBoard(home, env, room, text);
        const who = boardChatIdentity(home, env);
        return remoteChatPost(room, who.kind === 'human' ? who.name : null, text, time.scheduler);
      }),
    // This machine's lost sessions here; another machine's (the board's --host) there, over ssh.
    revive: async (sessions, onOutcome) => {
      const here = await reviveSessions(home, sessions.filter((s) => !s.host), time, onOutcome);
      return [...here, ...(await reviveRemote(sessions.filter((s) => s.host), time.scheduler, onOutcome))];
    },
    // As `send` does, each connection reads the session afresh (findSession throws for one that is gone).
    // A remote row (the board's --host) over ssh by its id there; never a local session of the same id.
    ...sessionIo((s, client) => (s.host ? connectRemoteRow(s, client, time) : connectSession(home, findSession(home, s.id), client, time)), time),
  };
}
