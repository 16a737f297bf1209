/**
 * The chat of a room, as data: the record shape, mentions, and the loop
 * guard. Pure: the store (src/state/chat-store.ts) and the wake dispatcher
 * both decide from these functions, so they can never disagree.
 */

export type ChatKind = 'human' | 'agent' | 'system';
export type ChatEvent = 'pause' | 'resume';

/** One line of rooms/<room>/chat.jsonl. */
export interface ChatRecord {
  /** Strictly increasing within the room, from 1. */
  id: number;
  /** ISO time of the post. */
  ts: string;
  /** A session's name (agent), a human's display name, or `system`. */
  from: string;
  kind: ChatKind;
  text: string;
  /** Members of the room mentioned with @name (their own spelling), and `all` for @all. */
  mentions: string[];
  /** System records only: the loop guard paused or resumed the room's wakes. */
  event?: ChatEvent;
}

export const DEFAULT_ROOM = 'default';

/** The room a session is in: records from before rooms have none, and are in the default room. The one spelling of that rule. */
export const roomOf = (r: { room?: string }): string => r.room ?? DEFAULT_ROOM;
/** Senders of system records; also refused as a human's display name. */
export const SYSTEM_SENDER = 'system';
export const DEFAULT_MAX_HOPS = 30;
export const MIN_MAX_HOPS = 4;
export const MAX_MAX_HOPS = 50;
/** A post longer than this is refused: every reader of the room pays for it. */
export const MAX_CHAT_TEXT = 64 * 1024;
export const CONTINUE_COMMAND = '/continue';

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Room names are path components and typed on command lines: the rule of session names. */
export function checkRoomName(room: string): string | null {
  return NAME_RE.test(room) ? null : `invalid room "${room}": use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
}

/** A human's display name (--from) reads like a session name, and may not pose as the system or @all. */
export function checkSenderName(name: string): string | null {
  if (!NAME_RE.test(name)) return `invalid sender name "${name}": use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
  const lower = name.toLowerCase();
  if (lower === SYSTEM_SENDER || lower === 'all') return `"${name}" is reserved; pick another name`;
  return null;
}

export function checkMaxHops(n: number): string | null {
  if (!Number.isInteger(n) || n < MIN_MAX_HOPS || n > MAX_MAX_HOPS) {
    return `max hops must be a whole number from ${MIN_MAX_HOPS} to ${MAX_MAX_HOPS}, not ${n}`;
  }
  return null;
}

const KINDS: ReadonlySet<string> = new Set<ChatKind>(['human', 'agent', 'system']);
const EVENTS: ReadonlySet<string> = new Set<ChatEvent>(['pause', 'resume']);

/** `value` if it is a chat record, else null (readers skip what they cannot trust). */
export function asChatRecord(value: unknown): ChatRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Partial<ChatRecord>;
  const ok =
    Number.isSafeInteger(r.id) && (r.id as number) > 0 &&
    typeof r.ts === 'string' &&
    typeof r.from === 'string' &&
    typeof r.kind === 'string' && KINDS.has(r.kind) &&
    typeof r.text === 'string' &&
    Array.isArray(r.mentions) && r.mentions.every((m) => typeof m === 'string') &&
    (r.event === undefined || (typeof r.event === 'string' && EVENTS.has(r.event)));
  return ok ? (r as ChatRecord) : null;
}

// ---- mentions ----------------------------------------------------------------

/**
 * The text with its code blanked out: fenced blocks (a line opening with
 * three or more backticks, up to a closing fence of at least as many, or the
 * end) and inline spans (a run of backticks up to the next run of the same
 * length, as in CommonMark; an unmatched run is literal). Blanking keeps
 * offsets, so a mention never joins across removed code.
 */
export function blankCode(text: string): string {
  const out = text.split('');
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') { i++; continue; }
    let n = 0;
    while (text[i + n] === '`') n++;
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    const fence = n >= 3 && /^ {0,3}$/.test(text.slice(lineStart, i));
    let end: number;
    if (fence) {
      const close = new RegExp(`\\n {0,3}\`{${n},}[ \\t]*(?=\\n|$)`, 'g');
      close.lastIndex = i + n;
      const m = close.exec(text);
      end = m ? m.index + m[0].length : text.length;
    } else {
      end = findRun(text, i + n, n);
      if (end < 0) { i += n; continue; }
    }
    for (let k = i; k < end; k++) if (out[k] !== '\n') out[k] = ' ';
    i = end;
  }
  return out.join('');
}

/** The end of the next run of exactly n backticks from `from`, or -1. */
function findRun(text: string, from: number, n: number): number {
  let j = from;
  while (j < text.length) {
    if (text[j] !== '`') { j++; continue; }
    let m = 0;
    while (text[j + m] === '`') m++;
    if (m === n) return j + m;
    j += m;
  }
  return -1;
}

const NAME_CHAR = /[A-Za-z0-9_-]/;
const isNameChar = (c: string | undefined) => c !== undefined && (NAME_CHAR.test(c) || c === '.');

/**
 * The members mentioned in `text` with @name, case-insensitively, each once,
 * in the order first mentioned and in the member's own spelling; `all` for
 * @all. Not inside code. The name must end there: @alice does not match in
 * @alice2 or @alice.b (unless that is a member too), but does before a full
 * stop ("thanks @alice."). An @ inside a word (mail@alice.dev) or after another @ is no mention.
 */
export function parseMentions(text: string, members: readonly string[]): string[] {
  const plain = blankCode(text);
  // Longest first, so @alice.b finds "alice.b" before "alice"; the exact spelling wins a tie of case.
  const candidates = [...members, 'all'].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  for (let at = plain.indexOf('@'); at >= 0; at = plain.indexOf('@', at + 1)) {
    if (isNameChar(plain[at - 1]) || plain[at - 1] === '@') continue;
    const rest = plain.slice(at + 1);
    const lower = rest.toLowerCase();
    let hit: string | undefined;
    for (const name of candidates) {
      if (hit !== undefined && name.length < hit.length) break;
      if (!lower.startsWith(name.toLowerCase()) || !endsName(rest, name.length)) continue;
      if (hit === undefined || rest.startsWith(name)) hit = name;
    }
    if (hit !== undefined && !found.includes(hit)) found.push(hit);
  }
  return found;
}

/**
 * Every name written after an @ (outside code), as parseMentions would read it were each a member:
 * the members of a poster that cannot see the room's sessions (a sandboxed one, whose view of
 * agent-board's home is its own session). A name nobody has wakes nobody.
 */
export function writtenNames(text: string): string[] {
  const plain = blankCode(text);
  const names: string[] = [];
  for (const m of plain.matchAll(/@([A-Za-z0-9_.-]+)/g)) {
    const at = m.index ?? 0;
    if (isNameChar(plain[at - 1]) || plain[at - 1] === '@') continue;
    const name = m[1]!.replace(/\.+$/, '');
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Whether a name of length n ends at rest[n]: no name character follows, and a "." only as punctuation. */
function endsName(rest: string, n: number): boolean {
  const next = rest[n];
  if (next === undefined) return true;
  if (next === '.') return !isNameChar(rest[n + 1]);
  return !NAME_CHAR.test(next);
}

/** Whether a record mentions `reader` (or everyone), and is not the reader's own. */
export function mentionsReader(r: ChatRecord, reader: string): boolean {
  const lower = reader.toLowerCase();
  if (r.from.toLowerCase() === lower) return false;
  return r.mentions.some((m) => m === 'all' || m.toLowerCase() === lower);
}

// ---- the loop guard ------------------------------------------------------------

export interface LoopState {
  /** Agent messages since the last human message (or resume). */
  hops: number;
  /** Wakes are paused until a human /continue. */
  paused: boolean;
}

export const LOOP_START: LoopState = { hops: 0, paused: false };

export const isContinue = (r: Pick<ChatRecord, 'kind' | 'text'>) => r.kind === 'human' && r.text.trim() === CONTINUE_COMMAND;

/**
 * One record's effect. A human message resets the count but does not lift a
 * pause by itself (a human chatting with paused agents has not reviewed the
 * loop); only /continue or a resume does. A resume also restarts the count,
 * or the next agent message would pause again at once.
 */
export function stepLoopGuard(s: LoopState, r: ChatRecord): LoopState {
  switch (r.kind) {
    case 'human':
      return { hops: 0, paused: isContinue(r) ? false : s.paused };
    case 'agent':
      return { hops: s.hops + 1, paused: s.paused };
    case 'system':
      if (r.event === 'pause') return { hops: s.hops, paused: true };
      if (r.event === 'resume') return { hops: 0, paused: false };
      return s;
  }
}

/**
 * The guard's state after `records` (a whole room, in order), for deciding
 * wakes. The pause record is what pauses; a count at or past maxHops without
 * one (maxHops was lowered since) also counts as paused, since the next agent
 * message would pause the room anyway. A human message lifts that kind, as it
 * resets the count.
 */
export function loopGuard(records: readonly ChatRecord[], maxHops = DEFAULT_MAX_HOPS): LoopState {
  const s = records.reduce(stepLoopGuard, LOOP_START);
  return { hops: s.hops, paused: s.paused || s.hops >= maxHops };
}

/** A system record to append, without id and time (the store gives those). */
export interface SystemNote {
  event: ChatEvent;
  text: string;
}

export function pauseText(hops: number): string {
  return `loop guard: ${hops} agent messages without a human; wakes paused. A human can resume with ${CONTINUE_COMMAND} (agent-board chat continue)`;
}

/**
 * What a new post implies, given the guard's state before it: an agent
 * message that brings the count to maxHops (or past it, after maxHops was
 * lowered) pauses the room, once; a human /continue in a paused room
 * resumes it. Anything else needs no note.
 */
export function guardNote(before: LoopState, posted: ChatRecord, maxHops: number): SystemNote | null {
  const after = stepLoopGuard(before, posted);
  if (posted.kind === 'agent' && !before.paused && after.hops >= maxHops) {
    return { event: 'pause', text: pauseText(after.hops) };
  }
  if (isContinue(posted) && before.paused) return { event: 'resume', text: `resumed by ${posted.from}` };
  return null;
}
