/**
 * How a session's agent gets its own conversation back: the one place that
 * decides, for `new` (an id of ours up front), `restart` and `revive` (resume
 * it) and `fork` (continue it under a new id), which words the program gets,
 * from the kind's data (src/core/agents/conversation.ts) and the agent's own
 * saved files. A conversation that was never saved (no turn yet) is started
 * afresh under the same id, never resumed into an error; each answer says
 * which happened, in one line.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentKind } from '../../core/agents/agent-kinds.js';
import { launchFor, type Launch } from '../../core/agents/agent-wiring.js';
import { conversationHome, conversationWords, savedPattern, wordsPickConversation, type ConversationRules } from '../../core/agents/conversation.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { EXIT, UserError } from '../../state/errors.js';
import { kindNamed } from '../../state/kind-files.js';
import { sessionDir } from '../../state/paths.js';
import { geminiSystemLayer, wiringPlace } from './wiring-place.js';

export type RelaunchMode = 'resume' | 'fork';

/** What became of the conversation: resumed, started afresh (never saved, or never learned), forked, or none (a shell). */
export type ConversationOutcome = 'resumed' | 'fresh' | 'forked' | 'none';

export interface ConversationPlan {
  /** The words for the program (launchFor's `conversation`); empty for a fresh start without an id. */
  words: string[];
  /** The id to record (host.json `resumeId`); absent until the agent names it (Codex, a Gemini fork). */
  conversationId?: string;
  outcome: ConversationOutcome;
  /** One line: what happened to the conversation, for the command to print. */
  note: string;
  /** The file the agent saved it in, when found (a fork's source). */
  file?: string;
}

export interface RelaunchOptions {
  mode: RelaunchMode;
  /** A fork's conversation id, for kinds that take one (default: a new UUID). */
  newConversationId?: string;
  /** The session the launch is for (its folder gets the wiring): default the record's own. */
  sessionId?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Relaunch extends ConversationPlan {
  /** The program, its full argv, env and wiring files (write `files` to `filesDir ?? sessionDir`, as createSession does). */
  launch: Launch;
}

/** Bytes read from a saved file to confirm the full id where the name only has part of it (Gemini: its first 8 characters). */
const ID_CHECK_BYTES = 64 * 1024;

function kindHome(rules: ConversationRules, env: NodeJS.ProcessEnv): string | null {
  return conversationHome(rules, env.HOME || os.homedir(), rules.home?.env ? env[rules.home.env.name] : undefined);
}

function mentions(file: string, text: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(ID_CHECK_BYTES);
    return buf.subarray(0, fs.readSync(fd, buf, 0, ID_CHECK_BYTES, 0)).toString('utf8').includes(text);
  } catch {
    return false; // unreadable: not a conversation we can resume
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Every file `saved` matches for `id` (`*` for any id), newest first. */
export function savedFiles(rules: ConversationRules, id: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const home = kindHome(rules, env);
  const parts = savedPattern(rules, id);
  if (!home || !parts) return [];
  let found = [home];
  for (const part of parts) {
    const next: string[] = [];
    for (const dir of found) {
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue; // not there (or not a folder): no match below it
      }
      for (const n of names) if (part.test(n)) next.push(path.join(dir, n));
    }
    found = next;
  }
  const files = found.map((f) => ({ f, st: fs.statSync(f, { throwIfNoEntry: false }) })).filter((x) => x.st?.isFile());
  return files.sort((a, b) => b.st!.mtimeMs - a.st!.mtimeMs).map((x) => x.f);
}

/** The newest file the agent saved conversation `id` in, or null (not saved: an agent writes it at the first turn, or at its start). */
export function savedConversation(rules: ConversationRules, id: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const exact = rules.saved?.includes('{id}') ?? false;
  return savedFiles(rules, id, env).find((f) => exact || mentions(f, id)) ?? null;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * The id of a conversation an agent imported from `source` since `sinceMs`
 * (Gemini's --session-file: a new file naming `source`, its id in its first
 * line), for when its hooks cannot tell it; null when there is none yet.
 */
export function importedConversation(rules: ConversationRules, source: string, sinceMs: number, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const f of savedFiles(rules, '*', env)) {
    if (fs.statSync(f).mtimeMs < sinceMs || f === source || !mentions(f, source)) continue;
    const id = UUID.exec(fs.readFileSync(f, 'utf8').split('\n', 1)[0] ?? '')?.[0];
    if (id) return id;
  }
  return null;
}

/** `new`: an id of ours and the words that start it, for kinds that take one (and whose user words do not pick one). */
export function newConversation(kind: AgentKind, words: readonly string[], env: NodeJS.ProcessEnv = process.env): { words: string[]; id?: string } {
  const r = kind.conversation;
  if (r.id !== 'given' || wordsPickConversation(r, words)) return { words: [] };
  const id = crypto.randomUUID();
  const w = conversationWords(r, 'start', { id, home: kindHome(r, env) ?? undefined });
  return w ? { words: w, id } : { words: [] };
}

/** What a restart (resume) or a fork does with the record's conversation. A fork that cannot be made is a UserError. */
export function planConversation(record: HostRecord, o: RelaunchOptions): ConversationPlan {
  const kind = kindNamed(record.agent);
  const r = kind.conversation;
  const env = o.env ?? process.env;
  const home = kindHome(r, env) ?? undefined;
  const id = record.resumeId;
  if (r.id === 'none' || record.extraArgs === undefined) {
    const what = o.mode === 'fork' ? 'the fork is a fresh' : 'started afresh:';
    return { words: [], outcome: 'none', note: `${record.agent} has no conversation of its own; ${what} ${record.command} in ${record.cwd}` };
  }
  if (wordsPickConversation(r, record.extraArgs)) {
    if (o.mode === 'fork') throw new UserError(`${record.name}'s own arguments pick its conversation (${record.extraArgs.join(' ')}): agent-board cannot fork it`, EXIT.usage);
    return { words: [], outcome: 'fresh', note: `its own arguments pick the conversation (${record.extraArgs.join(' ')}): started as given` };
  }
  const file = id ? savedConversation(r, id, env) : null;
  const saved = !!id && (r.saved === null || file !== null);
  if (o.mode === 'fork') {
    if (!r.fork) throw new UserError(`${kind.name} cannot fork a conversation (docs/agents.md, "Resume and fork")`, EXIT.usage);
    if (!id) throw new UserError(`${record.name}'s conversation is not known yet (${kind.name} names it after its first turn): nothing to fork`, EXIT.sessionUnavailable);
    if (!saved) throw new UserError(`${record.name}'s conversation ${id} was never saved (no turn yet): nothing to fork; start a new session instead`, EXIT.sessionUnavailable);
    const newId = r.forkId === 'given' ? (o.newConversationId ?? crypto.randomUUID()) : undefined;
    const words = conversationWords(r, 'fork', { id, newId, home, file: file ?? undefined });
    if (!words) throw new UserError(`${kind.name}'s fork needs its saved file, and none was found for ${id}`, EXIT.sessionUnavailable);
    return { words, conversationId: newId, file: file ?? undefined, outcome: 'forked', note: `conversation ${id} forked as ${newId ?? `a new one (${kind.name} names its id)`}` };
  }
  if (saved) return { words: conversationWords(r, 'resume', { id, home, file: file ?? undefined }) ?? [], conversationId: id, outcome: 'resumed', note: `conversation ${id} resumed` };
  const again = record.forkOf ? forkAgain(r, record.forkOf, id, home, env) : null;
  if (again) return again;
  // Never saved: the same id again where the kind takes one (its file would be made at the first turn), else a new start.
  const fresh = r.id === 'given' ? (id ? { id, words: conversationWords(r, 'start', { id, home }) } : newConversation(kind, record.extraArgs, env)) : null;
  const why = id ? `conversation ${id} was never saved (no turn yet)` : `its conversation id was never learned (${kind.name} names it after its first turn)`;
  if (fresh?.words?.length) return { words: fresh.words, conversationId: fresh.id, outcome: 'fresh', note: `${why}: started afresh as ${fresh.id}` };
  return { words: [], outcome: 'fresh', note: `${why}: started afresh` };
}

/**
 * A fork that never saved a conversation of its own (Claude and Codex save at
 * the first turn): forked from its source again, under the same new id where
 * the kind takes one, so its restart keeps the history it was forked with.
 */
function forkAgain(r: ConversationRules, source: string, id: string | undefined, home: string | undefined, env: NodeJS.ProcessEnv): ConversationPlan | null {
  const file = savedConversation(r, source, env);
  if (!r.fork || (r.saved !== null && !file)) return null;
  const newId = r.forkId === 'given' ? id : undefined;
  const words = conversationWords(r, 'fork', { id: source, newId, home, file: file ?? undefined });
  if (!words) return null;
  return { words, conversationId: newId, file: file ?? undefined, outcome: 'forked', note: `its fork of conversation ${source} was never saved (no turn yet): forked again${newId ? ` as ${newId}` : ''}` };
}

/**
 * The program, argv, env and wiring to start `record`'s agent again (`resume`,
 * for restart and revive) or as a fork of it (`fork`, for a new session whose
 * id is `sessionId`), with what became of its conversation.
 */
export function relaunchArgs(home: string, record: HostRecord, o: RelaunchOptions): Relaunch {
  const plan = planConversation(record, o);
  const kind = kindNamed(record.agent);
  const sid = o.sessionId ?? record.id;
  if (record.extraArgs === undefined) {
    // Started as a command line of its own (a shell, `new -- prog` of no known kind): the same again.
    return { ...plan, launch: { command: record.command, args: [...record.args], env: { ...record.env }, files: {} } };
  }
  const dir = sessionDir(home, sid);
  const launch = launchFor(kind, record.extraArgs, {
    command: record.command,
    conversation: plan.words,
    sessionDir: dir,
    shell: process.env.SHELL || '/bin/sh',
    place: wiringPlace(kind, home, sid, dir),
    systemLayer: kind.wiring === 'gemini' ? geminiSystemLayer() : undefined,
  });
  return { ...plan, launch };
}
