/**
 * The web page's protocol: JSON text frames on the one WebSocket between the page
 * (src/web/page) and the web server (src/web/server), both ways (docs/web.md). Pure: types and
 * the decoder of what a page sends; the server checks every frame with decodePageMessage before
 * it acts on it, and answers a bad one with one `error` frame (the socket goes on).
 */
import type { DiffModel } from '../worktree/diff-model.js';
import type { ChatRecord } from '../chat/chat.js';
import type { DialogText } from '../agents/dialog-text.js';
import type { SessionState } from '../session-state.js';

/** A frame from the page larger than this is refused unread (a prompt or a paste fits many times over). */
export const MAX_PAGE_FRAME_BYTES = 256 * 1024;
/** Keys in one `keys` frame: a paste of a long file goes in several. */
export const MAX_KEYS_CHARS = 64 * 1024;
/** A prompt or a chat post. */
export const MAX_TEXT_CHARS = 100_000;
/** Sessions one prompt goes to. */
export const MAX_TARGETS = 100;

// ---- server -> page ------------------------------------------------------------------------

/** One row of the list: what the board's row shows, for one session of one host. */
export interface WebRow {
  /** The board's id (`host/id` for a remote row). */
  id: string;
  name: string;
  /** Agent kind or the program (`shell`, `claude`, ...). */
  kind: string;
  state: SessionState;
  /** The board row's state word in full (`exited 3`, `killed`, `idle · disk full`, `no link`); the page may show `state` alone. */
  stateText?: string;
  /** A limited session's reset (ISO; null: the agent did not say): the page counts down to it. Absent when not limited. */
  resetAt?: string | null;
  /** The host it runs on (absent: this one); `stale`: that host cannot be reached now. */
  host?: string;
  stale?: boolean;
  /** Its last screen line (the board row's last column). */
  lastLine: string;
  /** ISO time of its last output, or null. */
  lastOutputAt: string | null;
  /** A worktree session's branch and counts, as the board's row shows them (null: no worktree). */
  worktree: string | null;
  /** The chat room it is in. */
  room: string;
  /** A waiting session's question and numbered options, read off its screen (null: none found or not waiting). */
  dialog: DialogText | null;
  /** Notifications for it are muted (per device). */
  muted: boolean;
  /** A sandboxed session's sandbox in a few words (`bwrap, network allowlist`): the row's mark and its title. Absent: not sandboxed. */
  sandbox?: string;
}

export type ServerMessage =
  /** The whole list, sent on connect and at most once a frame after any change. */
  | { t: 'rows'; rows: WebRow[]; hostLines: string[]; now: string }
  /** Who this device is (`device`: its id, as `web devices` lists it; `name`: what the user called it): read-only devices never type. */
  | { t: 'welcome'; device: string; name: string; readOnly: boolean; quiet: boolean; vapidKey: string | null; version: string }
  /** An opened session's exact screen: resize to cols x rows, clear, write `data`; live `out` follows. */
  | { t: 'frame'; id: string; cols: number; rows: number; data: string }
  | { t: 'out'; id: string; data: string }
  /** The session's size changed (the terminal on the page follows it). */
  | { t: 'size'; id: string; cols: number; rows: number }
  | { t: 'exit'; id: string; line: string }
  /** One result of a `send`, per target, as each is known. */
  | { t: 'sent'; cmd: string; id: string; status: 'applied' | 'accepted' | 'unconfirmed' | 'not_typed'; line: string }
  | { t: 'diff'; id: string; diff: DiffModel }
  | { t: 'chat'; room: string; records: ChatRecord[]; paused: boolean }
  /** A request did something worth one line (a comment sent, a post made). */
  | { t: 'ok'; ref?: string; line: string }
  /** A frame the server could not act on; `ref`: the request's own id, when it had one. */
  | { t: 'error'; ref?: string; line: string };

// ---- page -> server ------------------------------------------------------------------------

export type PageMessage =
  /** Follow this session's terminal (a fresh `frame`, then `out`). */
  | { t: 'open'; id: string }
  | { t: 'close'; id: string }
  /** Keys typed on the page, in order (refused for a read-only device). */
  | { t: 'keys'; id: string; data: string }
  /** Fit the session to this page (only when the user asked: a phone never shrinks a session by itself). */
  | { t: 'resize'; id: string; cols: number; rows: number }
  /** A prompt and Enter, exactly once per (cmd, target): a resent `cmd` after a reconnect is reconciled, never typed twice. */
  | { t: 'send'; cmd: string; ids: string[]; text: string }
  /** Pick option `n` of a waiting session's dialog (what 1-9 do on the board). */
  | { t: 'answer'; id: string; n: number }
  | { t: 'diff'; ref?: string; id: string }
  /** Review comments, sent back to the session as one prompt (exactly once per cmd). */
  | { t: 'comment'; cmd: string; id: string; text: string }
  /** Follow a room's chat (null: none). */
  | { t: 'room'; room: string | null }
  | { t: 'post'; ref?: string; room: string; text: string }
  /** Web Push: this browser's subscription (PushSubscription.toJSON()). */
  | { t: 'subscribe'; sub: PushSubscriptionJson }
  | { t: 'mute'; id: string; muted: boolean }
  | { t: 'quiet'; quiet: boolean };

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export type Decoded = { ok: true; msg: PageMessage } | { ok: false; line: string; ref?: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown, max = 1000): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const isInt = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
/** A command id from the page: what the journal takes (letters, digits, - and _). */
const isCmd = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(v);

/** Checks one text frame from a page; unknown extra fields are ignored. `bytes`: its size on the wire. */
export function decodePageMessage(raw: string, bytes: number = raw.length): Decoded {
  if (bytes > MAX_PAGE_FRAME_BYTES) return { ok: false, line: `a frame of ${bytes} bytes is over the limit of ${MAX_PAGE_FRAME_BYTES}` };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ok: false, line: 'a frame must be JSON' };
  }
  if (!isObject(v)) return { ok: false, line: 'a frame must be a JSON object' };
  const ref = typeof v.ref === 'string' && v.ref.length <= 64 ? v.ref : isCmd(v.cmd) ? v.cmd : undefined;
  const bad = (line: string): Decoded => ({ ok: false, line: `${String(v.t ?? 'frame')}: ${line}`, ref });
  const id = v.id;
  switch (v.t) {
    case 'open':
    case 'close':
      return isStr(id) ? { ok: true, msg: { t: v.t, id } } : bad('needs a session id');
    case 'keys':
      if (!isStr(id)) return bad('needs a session id');
      return typeof v.data === 'string' && v.data.length <= MAX_KEYS_CHARS ? { ok: true, msg: { t: 'keys', id, data: v.data } } : bad(`needs data, at most ${MAX_KEYS_CHARS} characters`);
    case 'resize':
      if (!isStr(id)) return bad('needs a session id');
      return isInt(v.cols, 2, 1000) && isInt(v.rows, 2, 1000) ? { ok: true, msg: { t: 'resize', id, cols: v.cols, rows: v.rows } } : bad('needs cols and rows (2-1000)');
    case 'send': {
      if (!isCmd(v.cmd)) return bad('needs a command id (8-64 letters, digits, - or _)');
      const ids = v.ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_TARGETS || !ids.every((x) => isStr(x))) return bad(`needs 1-${MAX_TARGETS} session ids`);
      if (new Set(ids).size !== ids.length) return bad('names a session twice');
      return isStr(v.text, MAX_TEXT_CHARS) ? { ok: true, msg: { t: 'send', cmd: v.cmd, ids, text: v.text } } : bad('needs the text');
    }
    case 'answer':
      if (!isStr(id)) return bad('needs a session id');
      return isInt(v.n, 1, 9) ? { ok: true, msg: { t: 'answer', id, n: v.n } } : bad('needs an option 1-9');
    case 'diff':
      return isStr(id) ? { ok: true, msg: { t: 'diff', id, ref } } : bad('needs a session id');
    case 'comment':
      if (!isCmd(v.cmd)) return bad('needs a command id (8-64 letters, digits, - or _)');
      if (!isStr(id)) return bad('needs a session id');
      return isStr(v.text, MAX_TEXT_CHARS) ? { ok: true, msg: { t: 'comment', cmd: v.cmd, id, text: v.text } } : bad('needs the text');
    case 'room':
      return v.room === null || isStr(v.room, 200) ? { ok: true, msg: { t: 'room', room: v.room } } : bad('needs a room name or null');
    case 'post':
      if (!isStr(v.room, 200)) return bad('needs a room');
      return isStr(v.text, MAX_TEXT_CHARS) ? { ok: true, msg: { t: 'post', ref, room: v.room, text: v.text } } : bad('needs the text');
    case 'subscribe': {
      const s = v.sub;
      if (!isObject(s) || !isStr(s.endpoint, 2000) || !/^https?:\/\//.test(s.endpoint) || !isObject(s.keys) || !isStr(s.keys.p256dh, 200) || !isStr(s.keys.auth, 100)) {
        return bad('needs a push subscription (endpoint, keys.p256dh, keys.auth)');
      }
      return { ok: true, msg: { t: 'subscribe', sub: { endpoint: s.endpoint, keys: { p256dh: s.keys.p256dh, auth: s.keys.auth } } } };
    }
    case 'mute':
      if (!isStr(id)) return bad('needs a session id');
      return typeof v.muted === 'boolean' ? { ok: true, msg: { t: 'mute', id, muted: v.muted } } : bad('needs muted: true or false');
    case 'quiet':
      return typeof v.quiet === 'boolean' ? { ok: true, msg: { t: 'quiet', quiet: v.quiet } } : bad('needs quiet: true or false');
    default:
      return { ok: false, line: `unknown frame type ${JSON.stringify(String(v.t ?? '')).slice(0, 40)}`, ref };
  }
}
