/**
 * Which file holds a session's usage (docs/usage.md): the agent's own transcript of the conversation
 * the session's record names (HostRecord.resumeId), where the kind's data says the CLI saves it
 * (`conversation.home` and `.saved` in src/core/agents/agent-kinds.ts), under $HOME or the CLI's own
 * variable (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, PI_CODING_AGENT_DIR) as the CLI reads it.
 * Reads folders only: call it until it finds the file (an agent writes it at its first turn), not on
 * every read of the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_KINDS } from '../../core/agents/agent-kinds.js';
import { conversationHome, savedPattern, type ConversationRules } from '../../core/agents/conversation.js';

export interface TranscriptQuery {
  kind: string;
  /** The conversation id (HostRecord.resumeId). */
  resumeId: string;
  /** The session's folder: Claude keeps a project's conversations in a folder named after it. */
  cwd: string;
  /** The session's environment (the agent's variables, HOME). */
  env: Record<string, string | undefined>;
}

/** Bytes of a Gemini chat's first line read to confirm the whole id (its file name has 8 characters of it). */
const FIRST_LINE_BYTES = 4096;

/** A file's first line (up to FIRST_LINE_BYTES), or '' when it cannot be read. */
export function firstLine(file: string): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(FIRST_LINE_BYTES);
    return buf.subarray(0, fs.readSync(fd, buf, 0, FIRST_LINE_BYTES, 0)).toString('utf8').split('\n', 1)[0] ?? '';
  } catch {
    return ''; // unreadable: not the transcript we can read
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Every file under `home` that the parts match, one name per part. */
function matching(home: string, parts: RegExp[]): string[] {
  let found = [home];
  for (const part of parts) {
    const next: string[] = [];
    for (const dir of found) {
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue; // not there, or not a folder: nothing below it
      }
      for (const n of names) if (part.test(n)) next.push(path.join(dir, n));
    }
    found = next;
  }
  return found;
}

/** Claude names a project's folder after its path, every character but a letter or digit a '-'. */
function claudeProjectFolder(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** Files that may hold the conversation; the caller keeps the newest that really does. */
function candidates(kind: string, rules: ConversationRules, home: string, q: TranscriptQuery): string[] {
  const parts = savedPattern(rules, q.resumeId);
  if (!parts) return [];
  if (kind === 'claude') {
    // Its own project's folder first (one stat); any project's when the session moved (`cd` in a shell).
    const own = path.join(home, 'projects', claudeProjectFolder(q.cwd), `${q.resumeId}.jsonl`);
    if (fs.existsSync(own)) return [own];
  }
  const files = matching(home, parts);
  // Gemini's file name has only the id's first 8 characters; its first line names the whole (or, for
  // a first turn written after its start-up file was deleted, a metadata line the runner appended:
  // src/core/agents/gemini-twins.ts). It reads JSON Lines (.jsonl); a .json beside it is the chat as
  // it was before Gemini 0.61 converted it.
  if (kind === 'gemini') return files.filter((f) => f.endsWith('.jsonl') && namesGeminiId(f, q.resumeId));
  return files;
}

function namesGeminiId(file: string, id: string): boolean {
  const first = firstLine(file);
  if (first.includes(`"${id}"`)) return true;
  if (first.includes('"sessionId"')) return false; // another conversation's metadata
  try {
    return fs.readFileSync(file, 'utf8').includes(`"sessionId":"${id}"`);
  } catch {
    return false;
  }
}

/** Every main chat file of Gemini conversation `resumeId` in any project (its name has 8 characters of the id), whatever it holds. */
export function geminiChatFiles(q: Omit<TranscriptQuery, 'kind'>): string[] {
  const rules = AGENT_KINDS.gemini?.conversation;
  if (!rules?.home) return [];
  const home = conversationHome(rules, q.env.HOME || os.homedir(), rules.home.env ? q.env[rules.home.env.name] : undefined);
  const parts = home ? savedPattern(rules, q.resumeId) : null;
  return home && parts ? matching(home, parts).filter((f) => f.endsWith('.jsonl')) : [];
}

/** The newest transcript of the session's conversation, or null (none saved yet, or a kind without one). */
export function findTranscript(o: TranscriptQuery): string | null {
  const rules = AGENT_KINDS[o.kind]?.conversation;
  if (!rules?.home || !o.resumeId) return null;
  const home = conversationHome(rules, o.env.HOME || os.homedir(), rules.home.env ? o.env[rules.home.env.name] : undefined);
  if (!home) return null;
  let best: { file: string; mtime: number } | null = null;
  for (const file of candidates(o.kind, rules, home, o)) {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st?.isFile() && (!best || st.mtimeMs > best.mtime)) best = { file, mtime: st.mtimeMs };
  }
  return best?.file ?? null;
}
