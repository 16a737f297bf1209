/**
 * A new session as a user asks for it, worked out once for everyone who starts one: `agent-board
 * new` (its flags, and its `--interactive` questions) and the board's new-session form. A request
 * (a kind or a command line, a name, a folder, a room, a worktree) becomes a plan: the options
 * createSession takes, the name and branch it will have, the program it runs, the same session as
 * an `agent-board new` line, and what is wrong with it, if anything, in one line. Then it starts,
 * in place or in a new worktree (src/client/worktree/worktree-session.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KindRegistry } from '../../core/agents/kind-rules.js';
import { checkRoomName, DEFAULT_ROOM } from '../../core/chat/chat.js';
import type { Time } from '../../core/clock.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { budgetText, type BudgetLimit } from '../../core/usage/budget.js';
import { checkSessionName } from '../../core/session-ref.js';
import { branchForSession } from '../../core/worktree/worktree.js';
import { kindRegistry } from '../../state/kind-files.js';
import { listSessions } from '../../state/host-store.js';
import { readUserConfig } from '../../state/config.js';
import { DEFAULT_SANDBOX_NETWORK, defaultSandbox, type SandboxConfig } from '../../core/sandbox/sandbox-config.js';
import { sandboxFlags } from '../../core/sandbox/sandbox-text.js';
import type { SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { requireSandbox } from './sandbox-required.js';
import { DEMO_AGENT } from './demo-program.js';
import { recognizeKind } from './recognize-kind.js';
import { splitCommandLine } from './command-line.js';
import { createSession, type NewSessionOptions } from './session-create.js';
import { findProgram } from '../../state/process/find-program.js';
import { shellQuote } from '../remote/ssh.js';
import { createWorktreeSession } from '../worktree/worktree-session.js';

export interface NewRequest {
  /** The agent kind (--agent); absent: recognised from the words (`-- claude`), else a shell. */
  kind?: string;
  /** The words after `--`: a shell's program and arguments, or an agent's extra arguments. */
  words: readonly string[];
  /** --command: with a kind, this program instead of the kind's own. */
  command?: string;
  name?: string;
  cwd: string;
  room?: string;
  /** --worktree: a new worktree on a new branch (absent: agent/<name>) from `base` (absent: HEAD). */
  worktree?: { branch?: string; base?: string; reuse?: boolean; setup?: string };
  scrollback?: number;
  cols?: number;
  rows?: number;
  /** --budget: the session's own budget (docs/usage.md, "Budgets"). */
  budget?: BudgetLimit;
  /** Where the hooks note goes (createSession's onHooksNote). */
  onHooksNote?: (note: string) => void;
  /** --resume-after-limit: type this prompt once a usage limit resets, at most perDay times a day (absent: as config.json says for the kind). */
  resumeAfterLimit?: { prompt: string; perDay: number };
  /** --sandbox (and its --network, --allow-host, --deny-read): this sandbox; false: --no-sandbox; absent: as config.json says for the room or kind. */
  sandbox?: SandboxSetting | false;
}

export interface NewPlan {
  /** The kind it runs as. */
  kind: string;
  /** What createSession takes (the name as given: createSession picks the default itself). */
  opts: NewSessionOptions;
  /** Its name: the one given, or the one it will get. */
  name: string;
  /** The branch of its worktree, with one. */
  branch: string | null;
  /** The program and its arguments, as a shell line (the kind's wiring, hooks and chat tools, comes on top). */
  runs: string;
  /** The same session as an `agent-board new` line typed in `from`. */
  line: string;
  /** What stops it, in one line (nothing: null); starting it anyway fails with the same error and its exit code. */
  problem: string | null;
  /** The git repository its folder is in (null: none). */
  repo: string | null;
  /** The sandbox it runs in (null: none): the one asked for, else config.json's for its room or kind. */
  sandbox: SandboxSetting | null;
}

export interface PlanContext {
  registry?: KindRegistry;
  /** The names taken already (default: this home's sessions). */
  taken?: readonly string[];
  home?: string;
  /** The folder the `agent-board new` line would be typed in (its -C is left out when it is the session's). */
  from?: string;
  shell?: string;
  /** Resume-after-limit per kind (config.json's `resumeAfterLimit`; default: read from it). */
  resumeByKind?: Readonly<Record<string, { prompt: string; perDay: number }>>;
  /** config.json's `sandbox` (default: read from it). */
  sandboxConfig?: SandboxConfig;
}

/** The git repository a folder is in (its top, where `.git` is), or null; no git run: the form asks as the user types. */
export function repositoryOf(folder: string): string | null {
  let dir = path.resolve(folder);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The name createSession would give (`claude-1`, `bash-2`). */
function defaultName(base: string, taken: readonly string[]): string {
  const b = base.replace(/[^A-Za-z0-9._-]/g, '') || 'session';
  for (let i = 1; ; i++) if (!taken.includes(`${b}-${i}`)) return `${b}-${i}`;
}

/** The request worked out: see NewPlan. Never throws; what is wrong is `problem`. */
export function planNewSession(req: NewRequest, ctx: PlanContext = {}): NewPlan {
  const registry = ctx.registry ?? kindRegistry();
  const shell = ctx.shell ?? (process.env.SHELL || '/bin/sh');
  let words = [...req.words];
  let command = req.command;
  let kind = req.kind;
  const problems: string[] = [];
  if (kind !== undefined && !registry.kinds.has(kind)) {
    problems.push(`unknown agent kind "${kind}"; the kinds are: ${[...registry.kinds.keys()].join(', ')}`);
    kind = 'shell';
  }
  const room = req.room ?? DEFAULT_ROOM;
  if (kind === undefined) {
    // `new -- claude ...`: the kind the program is, with its wiring, as if --agent had been given.
    const found = command ? null : recognizeKind(words, req.cwd, registry);
    if (found) {
      kind = found;
      command = words[0];
      words = words.slice(1);
    } else kind = 'shell';
  }
  // The demo kind's program is ours: with no words, the demo agent (it answers whoever mentions it), named demo-N.
  const demoAgent = kind === 'demo' && words.length === 0 && !command;
  if (demoAgent) words = [process.execPath, DEMO_AGENT, '--room', room];
  const own = registry.kinds.get(kind)!.command;
  // Agents with a program of their own take the words as extra arguments (src/core/agents/agent-wiring.ts).
  const argv = own !== null ? [command ?? own, ...words] : words.length ? words : [command ?? shell];
  const opts: NewSessionOptions = {
    name: req.name,
    command: own !== null ? (command ?? '') : argv[0]!,
    args: own !== null ? [] : argv.slice(1),
    words: own !== null ? words : undefined,
    cwd: req.cwd,
    cols: req.cols,
    rows: req.rows,
    agent: kind,
    room,
    scrollback: req.scrollback,
    onHooksNote: req.onHooksNote,
    ...(demoAgent ? { nameBase: 'demo' } : {}),
    ...(req.budget ? { extra: { budget: req.budget } } : {}),
  };
  // Off unless the user turned it on: for this session (--resume-after-limit), or for its kind in config.json.
  // config.json read once per plan (the board's form plans at each key), only when the context does not give it.
  const config = ctx.resumeByKind && ctx.sandboxConfig ? null : readUserConfig().config;
  const resume = req.resumeAfterLimit ?? (ctx.resumeByKind ?? config!.resumeAfterLimit)[kind];
  if (resume) opts.extra = { ...opts.extra, resumeAfterLimit: resume };
  // Asked for, or the room's default (else the kind's) from config.json unless --no-sandbox.
  const sandboxDefault = defaultSandbox(ctx.sandboxConfig ?? config!.sandbox, kind, room, os.homedir());
  const sandbox = req.sandbox === false ? null : (req.sandbox ?? sandboxDefault);
  if (sandbox) opts.extra = { ...opts.extra, sandbox };
  const taken = ctx.taken ?? (ctx.home ? listSessions(ctx.home).map((s) => s.name) : []);
  const name = req.name ?? defaultName(demoAgent ? 'demo' : own !== null ? kind : path.basename(argv[0]!), taken);
  const branch = req.worktree ? (req.worktree.branch || branchForSession(name)) : null;

  const cwd = path.resolve(req.cwd);
  const folderOk = fs.existsSync(cwd) && fs.statSync(cwd).isDirectory();
  if (!folderOk) problems.push(`folder ${cwd} does not exist`);
  if (req.name !== undefined) {
    const bad = checkSessionName(req.name);
    if (bad) problems.push(bad);
    else if (taken.includes(req.name)) problems.push(`a session named ${req.name} already exists; pick another name`);
  }
  const badRoom = checkRoomName(room);
  if (badRoom) problems.push(badRoom);
  if (folderOk && !findProgram(argv[0]!, { cwd })) {
    problems.push(own !== null && !command ? `${argv[0]} is not installed: install it, or pick another kind` : `command not found: ${argv[0]}`);
  }
  const repo = folderOk ? repositoryOf(cwd) : null;
  if (req.worktree && folderOk && !repo) problems.push(`${cwd} is not in a git repository: a new worktree needs one`);

  const line = newLine(req, name, branch, ctx.from, sandbox, sandboxDefault !== null);
  return { kind, opts, name, branch, runs: argv.map(shellQuote).join(' '), line, problem: problems[0] ?? null, repo, sandbox };
}

/**
 * The same session as an `agent-board new` line: only what differs from the defaults. Its
 * sandbox is said in full, config.json's default too (the line makes the same session where
 * config.json says otherwise); --no-sandbox where config.json would sandbox it.
 */
function newLine(req: NewRequest, name: string, branch: string | null, from: string | undefined, sandbox: SandboxSetting | null, sandboxedByDefault: boolean): string {
  const parts = ['agent-board', 'new'];
  if (req.name !== undefined) parts.push('--name', req.name);
  // A kind recognised from the words needs no --agent: the line recognises it the same way.
  if (req.kind !== undefined) parts.push('--agent', req.kind);
  if (req.command !== undefined) parts.push('--command', req.command);
  if ((req.room ?? DEFAULT_ROOM) !== DEFAULT_ROOM) parts.push('--room', req.room!);
  if (from === undefined || path.resolve(req.cwd) !== path.resolve(from)) parts.push('-C', req.cwd);
  if (branch !== null) {
    parts.push('--worktree');
    if (branch !== branchForSession(name)) parts.push(branch);
  }
  if (req.worktree?.base) parts.push('--base', req.worktree.base);
  if (req.budget) parts.push('--budget', budgetText(req.budget));
  if (sandbox) parts.push(...sandboxFlags(sandbox));
  else if (sandboxedByDefault) parts.push('--no-sandbox');
  const line = parts.map(shellQuote);
  if (req.words.length) line.push('--', ...req.words.map(shellQuote));
  return line.join(' ');
}

/** Starts the planned session: in place, or in a new worktree on its branch. `onSkipped`: a file `.worktreeinclude` left out, one line each. */
export async function startNewSession(home: string, req: NewRequest, plan: NewPlan, time: Time, onSkipped?: (line: string) => void): Promise<HostRecord> {
  // Refused before anything is made (no folder, no worktree): a sandboxed session never runs unsandboxed.
  if (plan.sandbox) await requireSandbox(plan.sandbox, path.resolve(req.cwd), time.scheduler);
  if (!req.worktree) return createSession(home, plan.opts, time);
  const made = await createWorktreeSession(home, plan.opts, {
    branch: req.worktree.branch || undefined,
    base: req.worktree.base,
    reuse: req.worktree.reuse === true,
    setup: req.worktree.setup,
    onSkipped,
  }, time);
  return made.record;
}

/** A kind the form offers: its name, its program (none: a shell's command line), and whether that is installed here. */
export interface KindChoice {
  name: string;
  program: string | null;
  installed: boolean;
}

/** Every kind (shipped first, then the user's rules file's), with whether its program is on PATH. */
export function kindChoices(cwd: string, registry: KindRegistry = kindRegistry()): KindChoice[] {
  return [...registry.kinds.values()].map((k) => ({
    name: k.name,
    program: k.command,
    installed: k.command === null || findProgram(k.command, { cwd: fs.existsSync(cwd) ? cwd : '/' }) !== null,
  }));
}

/** What the board's form holds (its command field as typed, `shell` for a kind the command line says). */
export interface FormInput {
  kind: string;
  name?: string;
  command: string;
  cwd: string;
  room: string;
  worktree: boolean;
  /** The branch the user typed (absent: the one proposed from the name). */
  branch?: string;
  /** `on`: `--sandbox` (bubblewrap, network allowlist); `off`: `--no-sandbox`; absent: as config.json says. */
  sandbox?: 'on' | 'off';
}

/** The form's fields as a request, or why they cannot be one (the command's quotes). */
export function formRequest(input: FormInput, size: { cols: number; rows: number }): NewRequest | { error: string } {
  const words = input.command.trim() ? splitCommandLine(input.command) : [];
  if (!Array.isArray(words)) return words;
  return {
    // A shell's command line says its kind (`claude` in it is claude, as `new -- claude` is).
    kind: input.kind === 'shell' ? undefined : input.kind,
    words,
    name: input.name,
    cwd: input.cwd,
    room: input.room || DEFAULT_ROOM,
    worktree: input.worktree ? { branch: input.branch } : undefined,
    ...(input.sandbox ? { sandbox: input.sandbox === 'on' ? { backend: 'bwrap' as const, network: DEFAULT_SANDBOX_NETWORK } : false } : {}),
    cols: size.cols,
    rows: size.rows,
    // The host record keeps the note; the form's message shows it (stderr would land on the board).
    onHooksNote: () => undefined,
  };
}
