import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRoomName, DEFAULT_ROOM } from '../core/chat/chat.js';
import type { ClientMessage } from '../core/protocol/client-messages.js';
import type { HostRecord } from '../core/protocol/host-record.js';
import { kindNamed } from '../state/kind-files.js';
import { launchFor } from '../core/agents/agent-wiring.js';
import { geminiSystemLayer, wiringPlace } from './wiring-place.js';
import { newConversation } from './conversation-launch.js';
import { checkSessionName, resolveSessionRef } from '../core/session-ref.js';
import { EXIT, UserError } from '../state/errors.js';
import { cannotWriteError, makeDirs, writeFileAtomic, writing } from '../state/write-errors.js';
import { ensurePrivateDir } from '../state/home.js';
import { listSessions, readHostFile, writeHostFile, type SessionView } from '../state/host-store.js';
import { hostFile, runnerLog, sessionDir, socketPath } from '../state/paths.js';
import { sleep } from './client-time.js';
import type { Time } from '../core/clock.js';
import { RunnerConnection } from './connection.js';
import { spawnRunner } from './runner-spawn.js';
import { ptyProblem, rebuildFix } from '../state/this-copy.js';
import { runnerProcessEnv } from '../core/agents/session-env.js';

/** Default history kept by each session's model. */
export const DEFAULT_SCROLLBACK = 5000;
/** How long `new` waits for its runner to come up before it reports failure. */
export const RUNNER_START_TIMEOUT_MS = 10_000;
/** How often `new` looks whether its runner serves yet. */
const RUNNER_START_POLL_MS = 20;

/**
 * The bundled runner (npm run build: scripts/bundle.mjs), which starts and idles lighter than
 * tsc's dist/runner/entry.js. This file runs from src/client (tests), dist/client or dist/bundle:
 * two folders down from the project's root each time.
 */
export const RUNNER_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'bundle', 'runner.cjs');

/**
 * V8 flags for the runner process, measured (docs/architecture.md, "Starting a session"): a
 * budget 15 times V8's default before a function is looked at for optimizing, so start-up code
 * run a few times (xterm's parser tables, the kinds' rules) never wakes TurboFan, whose code
 * pages cost an idle runner about 4 MiB of RSS; output keeps it hot enough to be optimized
 * within the first milliseconds of a burst. The second flag takes away V8's shortcut for small
 * functions (optimized on their first budget tick): at 200 columns the first few screen reads
 * run xterm's BufferLine.getTrimmedLength over 10,000 cells, and that one function alone woke
 * TurboFan (3.9 MiB of RSS in an idle 200x50 runner, none at 80x24); a hot one still gets
 * optimized, three ticks later. --no-sparkplug: no baseline-compiled copies of the functions
 * start-up ran (0.8 MiB of RSS); the parse was no slower without them (bench/parse-bytes.mjs:
 * TurboFan takes the hot loop either way). --expose-gc lets the runner give back what a burst of output
 * grew, once it is quiet (src/runner/memory-reclaim.ts). Smaller semi-spaces, a smaller V8 thread pool and a
 * single-threaded GC saved under 1 MiB each and cost GC time on a `cat`; --lite-mode and
 * --jitless save more but parse several times slower.
 */
export const RUNNER_NODE_FLAGS = ['--interrupt-budget=1000000', '--max-bytecode-size-for-early-opt=0', '--no-sparkplug', '--expose-gc'];

/** The session a user named, or a UserError that says why not. */
export function findSession(home: string, ref: string): SessionView {
  const r = resolveSessionRef(ref, listSessions(home));
  if (r.ok) return r.session;
  throw new UserError(r.message, r.reason === 'ambiguous' ? EXIT.ambiguousSession : EXIT.unknownSession);
}

/** Connect to a running session, with a clear error when it cannot be reached; `pipelined` goes with the hello (ConnectOptions.pipelined). */
export async function connectSession(home: string, s: SessionView, client: string, time: Time, readOnly = false, pipelined?: readonly ClientMessage[]): Promise<RunnerConnection> {
  if (s.status === 'lost') throw new UserError(`session ${s.name} is ${lostReason(s)}`, EXIT.sessionUnavailable);
  if (s.status === 'exited') {
    throw new UserError(`session ${s.name} has exited (${describeExit(s)})`, EXIT.sessionUnavailable);
  }
  try {
    return await RunnerConnection.open(socketPath(home, s.id), { client, readOnly, scheduler: time.scheduler, pipelined });
  } catch (err) {
    // Its runner runs but has written no heartbeat for 20 s and does not answer either: wedged, not a full disk.
    if (s.heartbeatStale) throw new UserError(`session ${s.name} is ${lostReason(s)}`, EXIT.sessionUnavailable);
    throw new UserError(`cannot reach session ${s.name}: ${(err as Error).message}; see ${runnerLog(home, s.id)}`, EXIT.sessionUnavailable);
  }
}

/**
 * Why a lost session is lost and what brings it back, after `<name> is`: `lost: its runner (pid
 * 12) is gone; bring it back with: agent-board revive api (or remove it: agent-board rm api)`.
 * A runner that still runs but does not answer (wedged) must be ended before a revive can
 * replace it: only then does the advice name kill, and only that runner.
 */
export function lostReason(s: Pick<SessionView, 'name' | 'runnerPid' | 'runnerAlive'>): string {
  if (s.runnerAlive && s.runnerPid) {
    return `lost: its runner (pid ${s.runnerPid}) still runs but does not answer; end it (kill ${s.runnerPid}), then bring the session back with: agent-board revive ${s.name}`;
  }
  return `lost: its runner${s.runnerPid ? ` (pid ${s.runnerPid})` : ''} is gone; bring it back with: agent-board revive ${s.name} (or remove it: agent-board rm ${s.name})`;
}

export function describeExit(s: Pick<HostRecord, 'exitCode' | 'exitSignal'>): string {
  return s.exitSignal ? `killed by ${s.exitSignal}` : `exit code ${s.exitCode ?? 'unknown'}`;
}

/**
 * How a program ended, in words: `killed (SIGHUP)` when a user asked for it (host.json `killed`:
 * `kill`, the board's x, `rm --force`, `restart`), else `exited (exit code 3)` or
 * `exited (killed by SIGSEGV)`, a signal nobody asked for.
 */
export function endedText(s: Pick<HostRecord, 'exitCode' | 'exitSignal' | 'killed'>): string {
  return s.killed ? `killed (${s.exitSignal ?? `exit code ${s.exitCode ?? 'unknown'}`})` : `exited (${describeExit(s)})`;
}

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
  /** With words: the agent's own conversation, its words and id (`fork`); default a new one, with an id of ours where the kind takes one (src/client/conversation-launch.ts). */
  conversation?: { words: string[]; id?: string };
}

/** Like the shell's lookup: a path is checked as is (relative to cwd), a bare name on PATH. */
export function findExecutable(command: string, cwd: string): string | null {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : (process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => path.join(dir, command));
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here: the next candidate
    }
  }
  return null;
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
  if (!findExecutable(launch.command, cwd)) {
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

/** Files an agent kind's wiring needs (Gemini's settings layer), 0600, in a folder made 0700 (src/client/wiring-place.ts). */
export function writeWiringFiles(dir: string, files: Record<string, string>): void {
  if (Object.keys(files).length) writing("the agent's settings folder", dir, () => makeDirs(dir));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    writing("the agent's settings", file, () => writeFileAtomic(file, content));
  }
}

/** Writes host.json as given and starts the session's runner, detached; resolves once it serves. */
export async function startRunner(home: string, record: HostRecord, time: Time): Promise<HostRecord> {
  // The folder the session runs in may be gone (a worktree deleted by hand): say so, not a spawn ENOENT.
  // A worktree gone is 9, as for every worktree command; another folder gone, 5 (it cannot run), as revive says.
  if (!fs.existsSync(record.cwd) || !fs.statSync(record.cwd).isDirectory()) {
    throw new UserError(
      `session ${record.name} cannot start: its folder ${record.cwd} is gone${record.worktree ? ' (its worktree was deleted by hand?)' : ''}; remove it with: agent-board rm ${record.name}`,
      record.worktree ? EXIT.notARepo : EXIT.sessionUnavailable,
    );
  }
  if (!fs.existsSync(RUNNER_ENTRY)) throw new UserError(`${RUNNER_ENTRY} is missing: ${rebuildFix()}`, EXIT.failure);
  const file = hostFile(home, record.id);
  writing("the session's record", file, () => writeHostFile(file, record));
  // In a systemd user scope where that keeps it past a logout, else detached (src/client/runner-spawn.ts).
  const spawned = spawnRunner({ home, record, time, argv: [process.execPath, ...RUNNER_NODE_FLAGS, RUNNER_ENTRY, record.id], env: { ...runnerProcessEnv(process.env), AGENT_BOARD_HOME: home } });
  try {
    await waitForRunner(home, record.id, time);
  } finally {
    spawned.dispose();
  }
  return readHostFile(hostFile(home, record.id)) ?? record;
}

async function waitForRunner(home: string, id: string, time: Time): Promise<void> {
  const deadline = time.clock.now() + RUNNER_START_TIMEOUT_MS;
  const sock = socketPath(home, id);
  while (time.clock.now() < deadline) {
    const rec = readHostFile(hostFile(home, id));
    if (rec?.status === 'exited') return; // it ran and finished already: still a session to look at
    // Asked while the record still says starting too: a runner that cannot write its record says so only here.
    if (rec !== null && rec.status !== 'lost' && fs.existsSync(sock)) {
      let host: HostRecord | null = null;
      try {
        const conn = await RunnerConnection.open(sock, { client: 'new', scheduler: time.scheduler });
        host = conn.hello.host;
        conn.dispose();
      } catch {
        // not listening yet: the next poll tries again, and the deadline reports it
      }
      if (host?.cannotWrite) unwritableStart(home, host, host.cannotWrite);
      if (host?.status === 'running' || host?.status === 'exited') return;
    }
    await sleep(time.scheduler, RUNNER_START_POLL_MS);
  }
  // A runner whose node-pty cannot load dies before it opens its log: say why, not where no log is.
  const pty = ptyProblem();
  if (pty) throw new UserError(`session ${id} did not start: node-pty cannot load (${pty.why}): ${pty.fix}`, EXIT.runnerDied);
  throw new UserError(`session ${id} did not start within ${RUNNER_START_TIMEOUT_MS / 1000} s; see ${runnerLog(home, id)}`, EXIT.runnerDied);
}

/**
 * The runner started but cannot write its record (the disk filled between our write and its
 * own): on disk the session would have no runner, so it would be lost at once. It is ended
 * (program and runner), and the start fails as if our own write had.
 */
function unwritableStart(home: string, host: HostRecord, code: string): never {
  for (const pid of [host.childPid ? -host.childPid : null, host.runnerPid]) {
    if (!pid) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already: what we wanted
    }
  }
  throw cannotWriteError("the session's record", hostFile(home, host.id), code);
}
