/**
 * Removes Gemini CLI's empty twins of a session's conversation (src/core/agents/gemini-twins.ts says
 * what they are and why they must go: the next Gemini start in the project would delete the
 * conversation with them). Looks only in the folder the conversation is saved in, and only at files
 * named for its id; reads a file whole only when it is small enough to be a twin.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chatFacts, emptyTwins, isChatOf, type ChatFileFacts } from '../../core/agents/gemini-twins.js';
import { findTranscript, firstLine } from './transcript-find.js';

/**
 * A twin is a metadata line and Gemini's start-up context (a listing of up to 200 entries of the
 * project): a few KiB, well under this. A bigger file holds a conversation and is not read whole.
 */
const TWIN_MAX_BYTES = 256 * 1024;

export interface TwinSweep {
  /** The twins removed, by path. */
  removed: string[];
  /** One line per file that could not be looked at or removed. */
  errors: string[];
}

function factsOf(file: string, name: string, st: fs.BigIntStats): ChatFileFacts {
  if (st.size > BigInt(TWIN_MAX_BYTES)) {
    let sessionId: string | null = null;
    try {
      const meta: unknown = JSON.parse(firstLine(file));
      if (typeof meta === 'object' && meta !== null && typeof (meta as { sessionId?: unknown }).sessionId === 'string') sessionId = (meta as { sessionId: string }).sessionId;
    } catch {
      // a first line that does not parse: not a chat of this id
    }
    return { name, sessionId, resumable: true, readable: true, mtimeNs: st.mtimeNs };
  }
  return { name, ...chatFacts(fs.readFileSync(file, 'utf8')), mtimeNs: st.mtimeNs };
}

/** Removes the empty twins of Gemini conversation `resumeId` (the session's folder and environment say where Gemini keeps it). */
export function sweepGeminiTwins(q: { resumeId: string; cwd: string; env: Record<string, string | undefined> }): TwinSweep {
  const out: TwinSweep = { removed: [], errors: [] };
  const saved = findTranscript({ kind: 'gemini', ...q });
  if (!saved) return out;
  const dir = path.dirname(saved);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => isChatOf(n, q.resumeId.slice(0, 8)));
  } catch (e) {
    out.errors.push(`cannot list ${dir}: ${(e as Error).message}`);
    return out;
  }
  // The usual case: the conversation's one file, nothing to compare it with.
  if (names.length < 2) return out;
  const files: ChatFileFacts[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file, { bigint: true });
      if (st.isFile()) files.push(factsOf(file, name, st));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.errors.push(`cannot read ${file}: ${(e as Error).message}`);
    }
  }
  for (const name of emptyTwins(files, q.resumeId)) {
    const file = path.join(dir, name);
    try {
      fs.unlinkSync(file);
      out.removed.push(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.errors.push(`cannot remove ${file}: ${(e as Error).message}`);
    }
  }
  return out;
}
