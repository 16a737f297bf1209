/**
 * Gemini CLI's empty twin of a conversation (docs/agents.md, "Gemini's empty twins").
 *
 * Started with `--resume <id>` (our restart and revive) or `--session-file <file>` (our fork),
 * Gemini CLI 0.61 first opens a fresh chat file for the id, `session-<UTC minute>-<id8>.jsonl`,
 * holding its start-up metadata only, and then goes on writing the conversation in the file it
 * resumed. When the minute differs from the resumed file's (every fork, a restart in a later minute),
 * that fresh file stays behind with nothing in it. The next Gemini start in the same project (any
 * session's, or one run by hand) takes it for a broken chat and deletes every file whose name ends in
 * the same eight characters: the whole conversation with it. The runner removes the twin first.
 *
 * A second loss, from the same cleanup: a session that has not taken its first turn has only that
 * start-up file, which another Gemini start deletes. Gemini then writes its first turn into a new file
 * of the same name with no metadata line: one Gemini can neither list nor resume, and deletes at its
 * next start. The runner appends the metadata line such a file lacks (Gemini takes a metadata line
 * from anywhere in the file), so it is whole again.
 *
 * What is a "conversation" here is Gemini's own judgement (its `isResumableMessageRecord`): a user
 * message other than an empty one, a slash or `?` command, or its injected context; or a model
 * message with text, tool calls or thoughts. A file we cannot read whole is never a twin.
 */

/** What one chat file holds, as far as telling a twin goes. */
export interface ChatFileFacts {
  /** Its name in the chats folder. */
  name: string;
  /** The conversation id its metadata names (Gemini merges a metadata line from anywhere), or null: none. */
  sessionId: string | null;
  /** The earliest time its messages carry (ISO), or null. */
  firstAt: string | null;
  /** Whether it holds a message Gemini would resume (see above). */
  resumable: boolean;
  /** False when a line does not parse (a write under way, a damaged file): such a file is left alone. */
  readable: boolean;
  /** Its modification time (ns): a twin is settled once the real file was written after it. */
  mtimeNs: bigint;
}

type Facts = Pick<ChatFileFacts, 'sessionId' | 'firstAt' | 'resumable' | 'readable'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message's text as Gemini flattens it; a part that is not text counts as content. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : isObject(p) ? '[part]' : '')).join('');
  if (isObject(content)) return typeof content.text === 'string' ? content.text : '[part]';
  return '';
}

/** Gemini's injected or ignored user input: never a conversation of its own. */
function ignoredUserText(t: string): boolean {
  return t.length === 0 || t.startsWith('/') || t.startsWith('?') || t.startsWith('<session_context>') || t.startsWith('<hook_context>');
}

function resumableMessage(m: Record<string, unknown>): boolean {
  const text = contentText(m.content).trim();
  if (m.type === 'user') return !ignoredUserText(text);
  if (m.type === 'gemini') return text.length > 0 || (Array.isArray(m.toolCalls) && m.toolCalls.length > 0) || (Array.isArray(m.thoughts) && m.thoughts.length > 0);
  return false;
}

/** The messages a record carries: itself, or the list a metadata record sets. */
function messagesOf(r: Record<string, unknown>): Record<string, unknown>[] {
  if (typeof r.id === 'string') return [r];
  const list = isObject(r.$set) ? r.$set.messages : r.messages;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** What a chat file's text holds (JSON Lines: a metadata line first, then messages and `$set` updates). */
export function chatFacts(text: string): Facts {
  const f: Facts = { sessionId: null, firstAt: null, resumable: false, readable: true };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      return { ...f, readable: false };
    }
    if (!isObject(r)) return { ...f, readable: false };
    if (f.sessionId === null && typeof r.sessionId === 'string' && typeof r.projectHash === 'string') f.sessionId = r.sessionId;
    for (const m of messagesOf(r)) {
      if (resumableMessage(m)) f.resumable = true;
      if (typeof m.timestamp === 'string' && (f.firstAt === null || m.timestamp < f.firstAt)) f.firstAt = m.timestamp;
    }
  }
  return f;
}

/** A metadata line as Gemini writes one, for a file of conversation `id` that has none. */
export function metadataLine(id: string, projectHash: string, startTime: string, now: string): string {
  return `${JSON.stringify({ sessionId: id, projectHash, startTime, lastUpdated: now, kind: 'main' })}\n`;
}

/**
 * The files named for conversation `id` that hold a conversation but no metadata line: its first
 * turn written after its start-up file was deleted. Unreadable ones wait (a write under way).
 */
export function headerless(files: readonly ChatFileFacts[], id: string): ChatFileFacts[] {
  return files.filter((f) => isChatOf(f.name, id.slice(0, 8)) && f.sessionId === null && f.readable && f.resumable);
}

/** Whether `name` is a main chat file of a conversation whose id starts with `id8`. */
export function isChatOf(name: string, id8: string): boolean {
  return name.startsWith('session-') && name.endsWith(`-${id8}.jsonl`);
}

/**
 * The files of conversation `id` that are its empty twins, safe to remove: named for it, naming the
 * whole id, read whole, holding no conversation, while another file of the same id does hold it and
 * was written after the twin (Gemini has moved on to that file: nothing will write the twin again).
 * Nothing when no file holds the conversation: an empty file is then the session's own, not yet used.
 */
export function emptyTwins(files: readonly ChatFileFacts[], id: string): string[] {
  const mine = files.filter((f) => isChatOf(f.name, id.slice(0, 8)) && f.sessionId === id && f.readable);
  let newest: bigint | null = null;
  for (const f of mine) if (f.resumable && (newest === null || f.mtimeNs > newest)) newest = f.mtimeNs;
  if (newest === null) return [];
  const after = newest;
  return mine.filter((f) => !f.resumable && f.mtimeNs < after).map((f) => f.name);
}
