/**
 * What the demo agent says, as pure functions: how it reads a wake, whom it
 * answers, and its canned lines. Honest by design: every line says it is a demo.
 */

/** The part of a wake the demo agent acts on: the room and the id to read after. */
export interface WakeCommand {
  room: string;
  since: number;
}

/** A chat record as `chat read --json` prints it (the fields the demo uses). */
export interface DemoMessage {
  id: number;
  from: string;
  kind: string;
  text: string;
}

/**
 * A submitted line is a wake when it holds a `chat read` command; its
 * `--room` and `--since` are taken from that command (not from the `chat post`
 * hint after it). Null for any other line.
 */
export function parseWake(line: string): WakeCommand | null {
  const at = line.indexOf('chat read');
  if (at < 0) return null;
  const cmd = line.slice(at).split(';')[0]!;
  const room = /--room\s+([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(cmd)?.[1];
  if (!room) return null;
  const since = /--since\s+(\d+)/.exec(cmd)?.[1];
  return { room, since: since ? Number(since) : 0 };
}

/**
 * Whom to answer: the sender of the last message that mentioned us when that
 * is another agent, else the peer the demo was given (a human asked us to
 * talk to it), else the human who wrote.
 */
export function replyTarget(messages: readonly DemoMessage[], me: string, peer: string | undefined): string | null {
  const last = messages.at(-1);
  if (!last) return null;
  if (last.kind === 'agent' && last.from.toLowerCase() !== me.toLowerCase()) return last.from;
  if (peer) return peer;
  return last.kind === 'human' ? last.from : null;
}

const REPLIES: ReadonlyArray<(to: string, me: string, id: number) => string> = [
  (to, me, id) => `@${to} (demo) Hello from ${me}! I read your message #${id}; this is a canned reply, I am a script.`,
  (to, _me, id) => `@${to} (demo) I read your message #${id}. Nothing real to add, so back to you.`,
  (to, _me, id) => `@${to} (demo) Got #${id}, thanks. The loop guard will pause us after a few of these.`,
  (to, me, id) => `@${to} (demo) ${me} here, I read #${id}. A human can resume us with: agent-board chat continue`,
];

/** The answer to message `id`, mentioning `to`; `turn` varies the wording. */
export function replyText(to: string, me: string, id: number, turn: number): string {
  return REPLIES[turn % REPLIES.length]!(to, me, id);
}

const ECHOES: ReadonlyArray<(line: string, me: string, room: string) => string> = [
  (line) => `(demo) You said "${line}". I am a scripted stand-in, not an AI: I only answer chat wakes.`,
  (_line, me) => `(demo) ${me} has no model behind it. Mention me in the chat (@${me}) to see a wake.`,
  (_line, me, room) => `(demo) Noted. From a shell, try: agent-board chat post --room ${room} "@${me} hi"`,
];

/** The canned answer to any line that is not a wake. */
export function echoText(line: string, me: string, room: string, turn: number): string {
  const short = line.length > 60 ? `${line.slice(0, 59)}…` : line;
  return ECHOES[turn % ECHOES.length]!(short, me, room);
}

/** One line of a chat text for the transcript: newlines and control characters made visible. */
export function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ').replace(/[\x00-\x1f\x7f-\x9f]/g, '?');
}

/** The records of `chat read --json` output, skipping lines that are not records. */
export function parseRecords(stdout: string): DemoMessage[] {
  const out: DemoMessage[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as Partial<DemoMessage>;
      if (typeof r.id === 'number' && typeof r.from === 'string' && typeof r.kind === 'string' && typeof r.text === 'string') {
        out.push({ id: r.id, from: r.from, kind: r.kind, text: r.text });
      }
    } catch {
      // not a record
    }
  }
  return out;
}

/** `s` cut to `w` columns (the demo's glyphs are all one column wide). */
export function fit(s: string, w: number): string {
  const cs = [...s];
  return cs.length <= w ? s : cs.slice(0, Math.max(0, w - 1)).join('') + '…';
}

/** `s` in rows of `w` columns, the later ones indented by four. */
export function wrap(s: string, w: number): string[] {
  const cs = [...s];
  if (cs.length <= w) return [s];
  const rows: string[] = [];
  let at = 0;
  // Rows after the first are indented by four; each breaks after its last space, or inside a word longer than a row.
  while (at < cs.length) {
    const room = rows.length === 0 ? w : Math.max(1, w - 4);
    let end = Math.min(cs.length, at + room);
    if (end < cs.length && cs[end] !== ' ') {
      const space = cs.lastIndexOf(' ', end - 1);
      if (space > at) end = space + 1;
    }
    const row = cs.slice(at, end).join('').trimEnd();
    rows.push(rows.length === 0 ? row : `    ${row}`);
    at = end;
    while (cs[at] === ' ') at++;
  }
  return rows;
}

/** A command-line word as a shell would need it: bare when safe, else in double quotes. */
export function quoted(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `"${a.replace(/(["\\$`])/g, '\\$1')}"`;
}
