/** A participant in a room's chat (the CLI's `chat`, the MCP server, the board's posts, the demo): who is talking, and what they post and read. */
import {
  checkRoomName, checkSenderName, DEFAULT_ROOM, MAX_CHAT_TEXT, mentionsReader, parseMentions, roomOf, writtenNames, type ChatRecord,
} from '../../core/chat/chat.js';
import { appendChat, readChat, type PostResult } from '../../state/chat-store.js';
import { SANDBOXED_ENV } from '../../core/sandbox/sandbox-types.js';
import { EXIT, UserError } from '../../state/errors.js';
import { listSessions } from '../../state/host-store.js';
import { checkedRoom, roomMembers } from '../../state/rooms.js';

/**
 * Who is talking, for the CLI and the MCP server alike. Inside a session
 * (AGENT_BOARD_SESSION, set by its runner) it is that session, as an agent,
 * always: an agent that could post as a human would reset the loop guard.
 */
export interface ChatIdentity {
  name: string;
  kind: 'human' | 'agent';
  /** The room used when none is given: the session's own, or `default`. */
  room: string;
  /** Inside a session: its id. */
  sessionId?: string;
}

export interface IdentityOptions {
  /** A human's display name (--from / --as); refused inside a session. */
  as?: string;
  /** --human: refused inside a session. */
  human?: boolean;
}

export const DEFAULT_HUMAN = 'human';

export function chatIdentity(home: string, env: NodeJS.ProcessEnv, opts: IdentityOptions = {}): ChatIdentity {
  const ref = env.AGENT_BOARD_SESSION;
  const sessions = listSessions(home);
  if (ref) {
    const s = sessions.find((x) => x.id === ref) ?? sessions.find((x) => x.name === ref);
    if (!s) {
      // Fail closed: posting as a human from inside some session would defeat the loop guard.
      throw new UserError(`AGENT_BOARD_SESSION=${ref} names no session in ${home}; outside a session, unset it to act as a human`, EXIT.unknownSession);
    }
    if (opts.as !== undefined || opts.human) {
      throw new UserError(`inside session ${s.name} you are ${s.name}, an agent: --as, --from and --human are refused there (the loop guard counts agent messages)`, EXIT.usage);
    }
    return { name: s.name, kind: 'agent', room: roomOf(s), sessionId: s.id };
  }
  const name = opts.as ?? DEFAULT_HUMAN;
  const bad = checkSenderName(name);
  if (bad) throw new UserError(bad, EXIT.usage);
  if (opts.as !== undefined && sessions.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
    throw new UserError(`"${name}" is a session's name; as a human, pick another name`, EXIT.usage);
  }
  return { name, kind: 'human', room: DEFAULT_ROOM };
}

/**
 * Whose mentions `read --mentions-only` shows: inside a session, the session
 * (--as refused, as for posting); outside, the name given with --as (a
 * session's name is fine here: a human may look at what an agent was asked).
 */
export function readerName(home: string, env: NodeJS.ProcessEnv, as: string | undefined): string | undefined {
  if (env.AGENT_BOARD_SESSION) return chatIdentity(home, env, { as }).name;
  if (as === undefined) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(as)) throw new UserError(`invalid name "${as}" for --as`, EXIT.usage);
  return as;
}

/** The room given, checked, or the identity's own. */
export function roomFor(who: Pick<ChatIdentity, 'room'>, room: string | undefined): string {
  return checkedRoom(room ?? who.room);
}

/** Posts `text` to `room` as `who`, with the mentions of the room's members. */
export async function postChat(home: string, who: ChatIdentity, room: string, text: string): Promise<PostResult> {
  const bad = checkRoomName(room);
  if (bad) throw new UserError(bad, EXIT.usage);
  if (!text.trim()) throw new UserError('nothing to post: the text is empty', EXIT.usage);
  if (text.length > MAX_CHAT_TEXT) {
    throw new UserError(`the text is ${text.length} characters; a post holds at most ${MAX_CHAT_TEXT}`, EXIT.usage);
  }
  // Inside a sandbox the room's other sessions are out of sight (docs/sandbox.md): every @name
  // written counts, and the runners, which see their own names, wake whoever it names.
  const members = process.env[SANDBOXED_ENV] === '1' ? [...roomMembers(home, room), ...writtenNames(text)] : roomMembers(home, room);
  const mentions = parseMentions(text, members);
  return appendChat(home, room, { from: who.name, kind: who.kind, text, mentions });
}

export interface ReadOptions {
  sinceId?: number;
  /** Only records mentioning this reader (or @all), not its own. */
  mentionsOf?: string;
}

export function readRoom(home: string, room: string, opts: ReadOptions = {}): ChatRecord[] {
  const records = readChat(home, room, opts.sinceId ?? 0);
  const reader = opts.mentionsOf;
  return reader === undefined ? records : records.filter((r) => mentionsReader(r, reader));
}

/** A --since value: a whole number, 0 or more. */
export function parseSince(value: string | undefined, what = '--since'): number {
  if (value === undefined) return 0;
  if (!/^\d{1,15}$/.test(value)) throw new UserError(`${what} must be a message id (a whole number), not "${value}"`, EXIT.usage);
  return Number(value);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `#id hh:mm from: text`, local time; later lines of the text are indented
 * under it. Control characters are shown in caret notation (^[), so a post
 * cannot drive the reader's terminal.
 */
export function formatRecord(r: ChatRecord): string {
  const d = new Date(r.ts);
  const time = Number.isNaN(d.getTime()) ? '--:--' : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return `#${r.id} ${time} ${visible(r.from)}: ${visible(r.text).replace(/\n/g, '\n    ')}`;
}

function visible(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? `^${String.fromCharCode(code + 64)}` : code === 0x7f ? '^?' : '?';
  });
}
