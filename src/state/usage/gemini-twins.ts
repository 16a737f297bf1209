/**
 * Keeps a Gemini session's conversation whole against Gemini CLI's own start-up cleanup
 * (src/core/agents/gemini-twins.ts says what goes wrong and why): removes the empty twins of the
 * conversation, and appends the metadata line to a first turn written without one. Looks only at the
 * files named for the conversation's id; reads a file whole only when it is small enough to be a twin
 * or when its first line is not metadata.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { NONE, toDisposable, type Disposable } from '../../core/lifetime.js';
import { chatFacts, emptyTwins, headerless, isChatOf, metadataLine, type ChatFileFacts } from '../../core/agents/gemini-twins.js';
import { firstLine, geminiChatFiles } from './transcript-find.js';

/**
 * A twin is a metadata line and Gemini's start-up context (a listing of up to 200 entries of the
 * project): a few KiB, well under this. A bigger file with metadata first holds a conversation and is
 * not read whole.
 */
const TWIN_MAX_BYTES = 256 * 1024;

export interface TwinSweep {
  /** The twins removed, by path. */
  removed: string[];
  /** The files given back their metadata line, by path. */
  mended: string[];
  /** The chats folders the conversation's files are in (to be watched). */
  dirs: string[];
  /** One line per file that could not be looked at, removed or mended. */
  errors: string[];
}

/**
 * The conversation, where the session runs, its environment, the time now (ms: for a mended file's
 * `lastUpdated`), and `dirs`: look only in these chats folders (found by an earlier sweep), not in
 * every project's (a full look lists every project's chats folder: 7.8 ms for 50 projects of 200 chats).
 */
type Query = { resumeId: string; cwd: string; env: Record<string, string | undefined>; now: number; dirs?: readonly string[] };

function filesIn(dirs: readonly string[], id8: string): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    try {
      for (const n of fs.readdirSync(dir)) if (isChatOf(n, id8)) out.push(path.join(dir, n));
    } catch {
      // gone: nothing of the conversation there any more
    }
  }
  return out;
}

/** The id a first line names as metadata, or null. */
function metaId(line: string): string | null {
  try {
    const o: unknown = JSON.parse(line);
    if (typeof o === 'object' && o !== null && typeof (o as { sessionId?: unknown }).sessionId === 'string' && typeof (o as { projectHash?: unknown }).projectHash === 'string') return (o as { sessionId: string }).sessionId;
  } catch {
    // not JSON, or cut short: no metadata here
  }
  return null;
}

function factsOf(file: string, name: string, st: fs.BigIntStats): ChatFileFacts {
  if (st.size > BigInt(TWIN_MAX_BYTES)) {
    const sessionId = metaId(firstLine(file));
    if (sessionId) return { name, sessionId, firstAt: null, resumable: true, readable: true, mtimeNs: st.mtimeNs };
  }
  return { name, ...chatFacts(fs.readFileSync(file, 'utf8')), mtimeNs: st.mtimeNs };
}

/** The project's hash as Gemini makes it (sha256 of the root it wrote beside the chats folder), or null. */
function projectHash(chatsDir: string): string | null {
  try {
    const root = fs.readFileSync(path.join(path.dirname(chatsDir), '.project_root'), 'utf8').trim();
    return root ? crypto.createHash('sha256').update(root).digest('hex') : null;
  } catch {
    return null;
  }
}

/**
 * Files (path and inode) known to name their conversation in a metadata line that is not their first
 * (mended ones): chats only grow, so such a file stays whole, and is not read whole again at each look
 * (a look follows each of Gemini's appends while it writes a turn). A file deleted and written anew
 * has another inode.
 */
const knownWhole = new Set<string>();

function sweepDir(dir: string, names: string[], id: string, now: string, out: TwinSweep): void {
  const files: ChatFileFacts[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file, { bigint: true });
      if (!st.isFile()) continue;
      // The usual case: one file, its metadata first (or known to hold it), naming the id: nothing to compare or mend.
      const key = `${file}:${st.ino}`;
      if (names.length === 1 && (knownWhole.has(key) || metaId(firstLine(file)) === id)) return;
      const facts = factsOf(file, name, st);
      if (facts.sessionId === id) knownWhole.add(key);
      files.push(facts);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.errors.push(`cannot read ${file}: ${(e as Error).message}`);
    }
  }
  for (const name of emptyTwins(files, id)) {
    const file = path.join(dir, name);
    try {
      fs.unlinkSync(file);
      out.removed.push(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.errors.push(`cannot remove ${file}: ${(e as Error).message}`);
    }
  }
  const torn = headerless(files, id);
  if (!torn.length) return;
  const hash = projectHash(dir);
  if (!hash) return void out.errors.push(`cannot mend ${path.join(dir, torn[0]!.name)}: no project root beside ${dir}`);
  for (const f of torn) {
    const file = path.join(dir, f.name);
    try {
      // Appended, not put first: Gemini appends to the file meanwhile, and takes metadata from any line.
      fs.appendFileSync(file, metadataLine(id, hash, f.firstAt ?? now, now));
      out.mended.push(file);
    } catch (e) {
      out.errors.push(`cannot mend ${file}: ${(e as Error).message}`);
    }
  }
}

/** Removes the empty twins of Gemini conversation `resumeId`, and mends its files that lack their metadata line. */
export function sweepGeminiTwins(q: Query): TwinSweep {
  const out: TwinSweep = { removed: [], mended: [], dirs: [], errors: [] };
  const byDir = new Map<string, string[]>();
  for (const f of q.dirs ? filesIn(q.dirs, q.resumeId.slice(0, 8)) : geminiChatFiles(q)) byDir.set(path.dirname(f), [...(byDir.get(path.dirname(f)) ?? []), path.basename(f)]);
  for (const [dir, names] of byDir) {
    out.dirs.push(dir);
    sweepDir(dir, names, q.resumeId, new Date(q.now).toISOString(), out);
  }
  return out;
}

/**
 * Calls `fn` at each change in chats folder `dir` until disposed (inotify). A folder that cannot be
 * watched, or whose watch fails later, is watched no more: the guard's other looks go on.
 */
export function watchChats(dir: string, fn: () => void, onError: (line: string) => void): Disposable {
  try {
    const w = fs.watch(dir, { persistent: false }, () => fn());
    w.on('error', (e) => {
      onError(`gemini: watching ${dir}: ${e.message}; looking at activity changes only`);
      w.close();
    });
    return toDisposable(() => w.close());
  } catch (e) {
    onError(`gemini: cannot watch ${dir}: ${(e as Error).message}; looking at activity changes only`);
    return NONE;
  }
}
