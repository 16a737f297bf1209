/**
 * What the page shows, as data, and how each server message changes it (pure: the terminal's
 * frames and output go straight to xterm, page-model.ts, and never through here).
 */
import type { ChatRecord } from '../../core/chat/chat.js';
import type { DiffModel } from '../../core/worktree/diff-model.js';
import type { ServerMessage, WebRow } from '../../core/web/web-protocol.js';
import type { Route } from './hash-route.js';
import type { LinkState } from './web-link.js';

export type Welcome = Extract<ServerMessage, { t: 'welcome' }>;
export type SentStatus = Extract<ServerMessage, { t: 'sent' }>['status'];

/** One prompt (or batch of comments) the user sent, and what came back per target. */
export interface SendRecord {
  cmd: string;
  kind: 'send' | 'comment';
  text: string;
  targets: string[];
  results: Record<string, { status: SentStatus; line: string }>;
  /** The server refused it whole. */
  error: string | null;
  /** A comment's one answer. */
  done: string | null;
}

export interface ChatView {
  room: string;
  records: ChatRecord[];
  paused: boolean;
}

export interface PageState {
  link: LinkState;
  welcome: Welcome | null;
  rows: WebRow[];
  hostLines: string[];
  /** The server's clock minus ours when the rows came: "time since output" is counted on the server's clock. */
  skewMs: number;
  route: Route;
  /** Rows marked for the prompt box, in the order marked. */
  marked: string[];
  /** The open session's end, as the server says it (`exit`), per session. */
  exits: Record<string, string>;
  diff: { id: string; model: DiffModel } | null;
  chat: ChatView | null;
  /** The latest sends first. */
  sends: SendRecord[];
  /** The last line worth saying (an `ok` or `error` frame). */
  notice: { line: string; error: boolean } | null;
}

/** Sends whose results stay on screen. */
const MAX_SENDS_SHOWN = 5;
/** Chat records kept in the page (the oldest go first). */
const MAX_CHAT_RECORDS = 500;

export const initialState = (route: Route): PageState => ({
  link: 'connecting',
  welcome: null,
  rows: [],
  hostLines: [],
  skewMs: 0,
  route,
  marked: [],
  exits: {},
  diff: null,
  chat: null,
  sends: [],
  notice: null,
});

/** Chat records merged by id (a full list and a few new ones both work), oldest first. */
function mergeRecords(old: readonly ChatRecord[], add: readonly ChatRecord[]): ChatRecord[] {
  const byId = new Map<number, ChatRecord>();
  for (const r of old) byId.set(r.id, r);
  for (const r of add) byId.set(r.id, r);
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-MAX_CHAT_RECORDS);
}

const updateSend = (s: PageState, cmd: string, f: (r: SendRecord) => SendRecord): PageState =>
  s.sends.some((r) => r.cmd === cmd) ? { ...s, sends: s.sends.map((r) => (r.cmd === cmd ? f(r) : r)) } : s;

/** One server message applied; `nowMs`: our clock when it came. */
export function applyServer(s: PageState, msg: ServerMessage, nowMs: number): PageState {
  switch (msg.t) {
    case 'welcome':
      return { ...s, welcome: msg };
    case 'rows': {
      const ids = new Set(msg.rows.map((r) => r.id));
      const serverNow = Date.parse(msg.now);
      return {
        ...s,
        rows: msg.rows,
        hostLines: msg.hostLines,
        skewMs: Number.isFinite(serverNow) ? serverNow - nowMs : s.skewMs,
        // A session gone from the list is no longer a target.
        marked: s.marked.filter((id) => ids.has(id)),
      };
    }
    case 'exit':
      return { ...s, exits: { ...s.exits, [msg.id]: msg.line } };
    case 'sent':
      return updateSend(s, msg.cmd, (r) => ({ ...r, results: { ...r.results, [msg.id]: { status: msg.status, line: msg.line } } }));
    case 'diff':
      return { ...s, diff: { id: msg.id, model: msg.diff } };
    case 'chat': {
      const same = s.chat?.room === msg.room;
      return { ...s, chat: { room: msg.room, records: mergeRecords(same ? s.chat!.records : [], msg.records), paused: msg.paused } };
    }
    case 'ok': {
      const t = msg.ref === undefined ? s : updateSend(s, msg.ref, (r) => ({ ...r, done: msg.line }));
      return { ...t, notice: { line: msg.line, error: false } };
    }
    case 'error': {
      const t = msg.ref === undefined ? s : updateSend(s, msg.ref, (r) => ({ ...r, error: msg.line }));
      return { ...t, notice: { line: msg.line, error: true } };
    }
    case 'frame':
    case 'out':
    case 'size':
      return s;
  }
}

/** A prompt or comments just sent, shown first. */
export const addSend = (s: PageState, r: SendRecord): PageState => ({ ...s, sends: [r, ...s.sends].slice(0, MAX_SENDS_SHOWN) });

/** Where a prompt goes: the marked rows, else the open session. */
export function promptTargets(s: PageState): string[] {
  if (s.marked.length > 0) return s.marked;
  return s.route.view === 'session' ? [s.route.id] : [];
}
