/**
 * A new session made (`new`, the board's form, fork, the demo, a worktree session): its id and
 * name, what its kind runs, its record, its folder and its kind's wiring files, then its runner
 * started (runner-start.ts). A session that could not be written leaves nothing behind.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkRoomName, DEFAULT_ROOM } from '../../core/chat/chat.js';
import type { Time } from '../../core/clock.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { launchFor } from '../../core/agents/agent-wiring.js';
import { checkSessionName } from '../../core/session-ref.js';
import { kindNamed } from '../../state/kind-files.js';
import { EXIT, UserError } from '../../state/errors.js';
import { ensurePrivateDir } from '../../state/home.js';
import { listSessions } from '../../state/host-store.js';
import { sessionDir } from '../../state/paths.js';
import { newConversation } from './conversation-launch.js';
import { findProgram } from '../../state/process/find-program.js';
import { startRunner } from './runner-start.js';
import { geminiSystemLayer, wiringPlace, writeWiringFiles } from './wiring-place.js';

/** Default history kept by each session's model. */
export const DEFAULT_SCROLLBACK = 5000;

export interface NewSessionOptions {
  name?: string;
  command: string;
  args: string[];
  cwd: string;
  cols?: number;
  rows?: number;
  agent?: string;
  scrollback?: number;
  /** The chat room (default `default`). */
  room?: string;
  /** With an agent kind: the words after `--` (extra arguments, or the command for shell); computes command and args. */
  words?: string[];
  /** Told the host record's hooksNote, once, when the kind's hooks could not be wired (default: a line on stderr, for `new`). */
  onHooksNote?: (note: string) => void;
  /** More of the record, as given (`new --worktree`: the worktree and its setup command; docs/worktrees.md). */
  extra?: Partial<HostRecord>;
  /** What the default name is made of (`demo` for `demo-1`); default the kind's name, or the program's. */
  nameBase?: string;
  /** With words: the agent's own conversation, its words and id (`fork`); default a new one, with an id of ours where the kind takes one (src/client/session/conversation-launch.ts). */
  conversation?: { words: string[]; id?: string };
}

function newId(): string {
  return crypto.randomBytes(4).toString('hex');
}

function defaultName(command: string, taken: Set<string>): string {
  const base = path.basename(command).replace(/[^A-Za-z0-9._-]/g, '') || 'session';
  for (let i = 1; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Writes the session's host.json and starts its runner, detached. Resolves once it serves. */
export async function createSession(home: string, opts: NewSessionOptions, time: Time): Promise<HostRecord> {
  const cwd = path.resolve(opts.cwd);
  if (!fs.existsSync(cwd) || !fs.statSync(cwd).isDirectory()) {
    throw new UserError(`working directory ${cwd} does not exist`, EXIT.usage);
  }
  const existing = listSessions(home);
  let id = newId();
  while (existing.some((s) => s.id === id)) id = newId();
  const kind = kindNamed(opts.agent ?? 'shell');
  const conversation = opts.words ? (opts.conversation ?? newConversation(kind, opts.words)) : undefined;
  // Agent kinds with a program of their own: the words are its extra arguments (see launchFor).
  const launch = opts.words
    ? launchFor(kind, opts.words, {
        command: opts.command || undefined,
        conversation: conversation?.words,
        sessionDir: sessionDir(home, id),
        shell: process.env.SHELL || '/bin/sh',
        place: wiringPlace(kind, home, id, sessionDir(home, id)),
        systemLayer: kind.wiring === 'gemini' ? geminiSystemLayer() : undefined,
      })
    : { command: opts.command, args: opts.args, env: {}, files: {} as Record<string, string>, extraArgs: undefined, filesDir: undefined, hooksNote: undefined };
  if (!findProgram(launch.command, { cwd })) {
    const why = opts.words && kind.command !== null ? ` (the ${kind.name} agent's program: install it, or name another with --command)` : '';
    throw new UserError(`command not found: ${launch.command}${why}`, EXIT.usage);
  }
  const taken = new Set(existing.map((s) => s.name));
  const name = opts.name ?? defaultName(opts.nameBase ?? (kind.command !== null ? kind.name : launch.command), taken);
  const bad = checkSessionName(name);
  if (bad) throw new UserError(bad, EXIT.usage);
  if (taken.has(name)) throw new UserError(`a session named ${name} already exists; pick another --name`, EXIT.usage);
  const room = opts.room ?? DEFAULT_ROOM;
  const badRoom = checkRoomName(room);
  if (badRoom) throw new UserError(badRoom, EXIT.usage);

  const now = new Date(time.clock.now()).toISOString();
  const record: HostRecord = {
    id,
    name,
    room,
    agent: opts.agent ?? 'shell',
    command: launch.command,
    args: launch.args,
    ...(launch.extraArgs ? { extraArgs: launch.extraArgs } : {}),
    ...(Object.keys(launch.env).length ? { env: launch.env } : {}),
    ...(launch.hooksNote ? { hooksNote: launch.hooksNote } : {}),
    ...(conversation?.id ? { resumeId: conversation.id } : {}),
    cwd,
    createdAt: now,
    updatedAt: now,
    heartbeatAt: now,
    lastOutputAt: null,
    runnerPid: null,
    childPid: null,
    generation: null,
    status: 'starting',
    cols: opts.cols ?? 80,
    rows: opts.rows ?? 24,
    exitCode: null,
    exitSignal: null,
    scrollback: opts.scrollback ?? DEFAULT_SCROLLBACK,
    ...opts.extra,
  };
  const dir = sessionDir(home, id);
  try {
    ensurePrivateDir(dir, 'session directory');
    writeWiringFiles(launch.filesDir ?? dir, launch.files);
    if (launch.hooksNote) (opts.onHooksNote ?? ((n) => process.stderr.write(`agent-board: ${n}\n`)))(launch.hooksNote);
    return await startRunner(home, record, time);
  } catch (err) {
    // A session that could not be written leaves nothing behind (no runner was started, or
    // startRunner ended it); one whose runner did not start keeps its folder: rm removes it, and
    // its runner.log says why.
    if (err instanceof UserError && err.exitCode === EXIT.cannotWrite) removeHalfMade(dir);
    throw err;
  }
}

/** A session folder `new` made and could not finish; a folder that cannot be removed (a read-only mount) is left as it is. */
function removeHalfMade(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // Nothing more can be done here; with no host.json in it no command lists it, and a later rm of the folder is safe.
  }
}
