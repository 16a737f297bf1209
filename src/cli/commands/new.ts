/** `agent-board new`: start a session in the background (optionally in its own git worktree) and print its id. */
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_SANDBOX_NETWORK, parseSandboxBackend } from '../../core/sandbox/sandbox-config.js';
import { expandHome } from '../../core/sandbox/deny-list.js';
import { allowHostProblem } from '../../core/sandbox/default-hosts.js';
import { SANDBOX_NETWORKS, type SandboxNetwork, type SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { planNewSession, startNewSession, type NewRequest } from '../../client/session/new-session.js';
import { DEFAULT_SCROLLBACK } from '../../client/session/session-create.js';
import { kindRegistry } from '../../state/kind-files.js';
import { EXIT, UserError } from '../../state/errors.js';
import { getHome } from '../context.js';
import { attachTo } from '../attach-to.js';
import { DEFAULT_DETACH_KEY, parseDetachKey } from '../../core/terminal/detach-key.js';
import { cliTime } from '../cli-time.js';
import { wholeNumber } from '../whole-number.js';
import { parseBudget } from '../../core/usage/budget.js';
import { DEFAULT_RESUME_PER_DAY, DEFAULT_RESUME_PROMPT } from '../../core/usage/limit-state.js';

interface NewFlags {
  name?: string;
  cwd: string;
  attach?: boolean;
  scrollback: string;
  detachKey?: string;
  agent?: string;
  room: string;
  command?: string;
  worktree?: string | true;
  base?: string;
  reuseBranch?: boolean;
  setup?: string;
  interactive?: boolean;
  budget?: string;
  resumeAfterLimit?: boolean;
  resumePrompt?: string;
  /** --sandbox [backend] (true: bubblewrap); false: --no-sandbox. */
  sandbox?: string | boolean;
  network?: string;
  allowHost?: string[];
  denyRead?: string[];
}

/** A repeatable flag's values, in order. */
const collect = (v: string, all: string[] | undefined) => [...(all ?? []), v];

export function registerNew(program: Command): void {
  program
    .command('new')
    .description('start a session that runs in the background; prints its id')
    .option('-n, --name <name>', 'a name to use instead of the id')
    .option('-C, --cwd <dir>', 'working directory', process.cwd())
    .option('-a, --attach', 'attach to it at once')
    .option('--room <room>', 'the chat room it belongs to', 'default')
    .option('--agent <kind>', 'what runs in it: shell, claude, codex, gemini, pi, demo, or a kind of your rules file (default: recognised from the program)')
    .option('--command <program>', "with --agent: run this instead of the agent's own program (a wrapper, another install)")
    .option('--scrollback <lines>', 'history lines kept for the session', String(DEFAULT_SCROLLBACK))
    .option('--detach-key <key>', 'with --attach: the key that detaches (default ctrl-\\)')
    .option('-w, --worktree [branch]', 'run in a new git worktree of the repository, on a new branch (default agent/<name>) from --base (docs/worktrees.md)')
    .option('--base <ref>', 'with --worktree: the branch or commit to start from (default: the current HEAD)')
    .option('--reuse-branch', 'with --worktree: check out the branch even if it exists already')
    .option('--setup <cmd>', "with --worktree: run this in the session before the program, once (default: .agent-board.json's worktree.setup)")
    .option('--budget <amount>', "its own budget: '$5', '2M tokens' or both ('$5,2M tokens'); when spent, new prompts are held (docs/usage.md)")
    .option('--resume-after-limit', 'when the agent hits a usage limit, type a prompt once the limit has reset (at most 3 times a day; docs/usage.md)')
    .option('--resume-prompt <text>', `with --resume-after-limit: the prompt typed (default "${DEFAULT_RESUME_PROMPT}")`)
    .option('--sandbox [backend]', 'run the program in a sandbox: bwrap (the default: bubblewrap), container or container:IMAGE; it writes only its folder and its agent\'s state (docs/sandbox.md)')
    .option('--network <mode>', 'with --sandbox: all, allowlist (the default: its kind\'s hosts and the listed ones) or none')
    .option('--allow-host <host>', 'with --sandbox: a host it may reach besides its kind\'s (host, *.domain or host:port); repeatable', collect)
    .option('--deny-read <path>', 'with --sandbox: a path it may not read besides the default list; repeatable', collect)
    .option('--no-sandbox', "not sandboxed, whatever config.json's sandbox says for its kind or room")
    .argument('[command...]', 'after --: the program and its arguments (default $SHELL); with --agent, extra arguments for the agent')
    .option('-i, --interactive', 'ask for the kind, command, name, folder, room, worktree and sandbox (the flags given are the defaults), show what it will run, and start it once confirmed')
    .action(async (cmd: string[], o: NewFlags) => {
      if (o.worktree === undefined && (o.base !== undefined || o.reuseBranch || o.setup !== undefined)) {
        throw new UserError('--base, --reuse-branch and --setup go with --worktree', EXIT.usage);
      }
      if (o.resumePrompt !== undefined && !o.resumeAfterLimit) throw new UserError('--resume-prompt goes with --resume-after-limit', EXIT.usage);
      if (o.resumePrompt !== undefined && o.resumePrompt.trim() === '') throw new UserError('--resume-prompt needs a prompt to type', EXIT.usage);
      const sandbox = sandboxRequest(o);
      const scrollback = wholeNumber(o.scrollback, '--scrollback');
      const budget = o.budget === undefined ? undefined : parseBudget(o.budget);
      if (typeof budget === 'string') throw new UserError(`--budget: ${budget}`, EXIT.usage);
      // --attach's mistakes are said before a session is started, not after.
      if (o.attach) {
        const key = parseDetachKey(o.detachKey ?? process.env.AGENT_BOARD_DETACH_KEY ?? DEFAULT_DETACH_KEY);
        if (!key.ok) throw new UserError(key.message, EXIT.usage);
        if (!process.stdin.isTTY || !process.stdout.isTTY) throw new UserError('--attach needs a terminal; without it, new prints the id', EXIT.usage);
      } else if (o.detachKey !== undefined) {
        throw new UserError('--detach-key goes with --attach', EXIT.usage);
      }
      const registry = kindRegistry();
      for (const e of registry.errors) process.stderr.write(`agent-board: ${e}\n`);
      if (o.agent !== undefined && !registry.kinds.has(o.agent)) {
        throw new UserError(`unknown agent kind "${o.agent}"; the kinds are: ${[...registry.kinds.keys()].join(', ')}`, EXIT.usage);
      }
      const home = getHome();
      let req: NewRequest = {
        kind: o.agent,
        words: cmd,
        command: o.command,
        name: o.name,
        cwd: o.cwd,
        room: o.room,
        worktree: o.worktree === undefined ? undefined : { branch: typeof o.worktree === 'string' ? o.worktree : undefined, base: o.base, reuse: o.reuseBranch === true, setup: o.setup },
        cols: process.stdout.columns,
        rows: process.stdout.rows,
        scrollback,
        ...(budget ? { budget } : {}),
        ...(sandbox !== undefined ? { sandbox } : {}),
        ...(o.resumeAfterLimit ? { resumeAfterLimit: { prompt: o.resumePrompt ?? DEFAULT_RESUME_PROMPT, perDay: DEFAULT_RESUME_PER_DAY } } : {}),
      };
      if (o.interactive) {
        const { askNewSession } = await import('../new-interactive.js');
        const asked = await askNewSession(home, req, registry);
        if (!asked) throw new UserError('nothing started', EXIT.failure);
        req = asked;
      }
      // The name createSession picks is its own: the plan's default name only shows (in -i's questions).
      const plan = planNewSession(req, { registry, taken: [] });
      const rec = await startNewSession(home, req, plan, cliTime(), (line) => process.stderr.write(`agent-board: .worktreeinclude: ${line}\n`));
      if (o.attach) {
        await attachTo(rec.id, { detachKey: o.detachKey });
        return;
      }
      process.stdout.write(`${rec.id}\n`);
    });
}


/** --sandbox and the flags that go with it as the setting the session keeps; absent: config.json decides; false: --no-sandbox. */
function sandboxRequest(o: NewFlags): SandboxSetting | false | undefined {
  const given = o.sandbox !== undefined && o.sandbox !== false;
  const allowHost = o.allowHost ?? [];
  const deny = o.denyRead ?? [];
  if (!given && (o.network !== undefined || allowHost.length || deny.length)) {
    throw new UserError('--network, --allow-host and --deny-read go with --sandbox', EXIT.usage);
  }
  if (o.sandbox === false) return false;
  if (!given) return undefined;
  const backend = parseSandboxBackend(o.sandbox === true ? undefined : o.sandbox);
  if (typeof backend === 'string') throw new UserError(`--sandbox: ${backend}`, EXIT.usage);
  const network = o.network ?? DEFAULT_SANDBOX_NETWORK;
  if (!SANDBOX_NETWORKS.includes(network as SandboxNetwork)) throw new UserError(`--network: "${network}" is not one of ${SANDBOX_NETWORKS.join(', ')}`, EXIT.usage);
  for (const h of allowHost) {
    const bad = allowHostProblem(h);
    if (bad) throw new UserError(`--allow-host: ${bad}`, EXIT.usage);
  }
  // Absolute, ~ expanded, as the runner needs them whatever folder it runs in.
  const denyRead = [...new Set(deny.map((p) => expandHome(p, os.homedir()) ?? path.resolve(p)))];
  return {
    ...backend,
    network: network as SandboxNetwork,
    ...(allowHost.length ? { allowHosts: [...new Set(allowHost)] } : {}),
    ...(denyRead.length ? { denyRead } : {}),
  };
}
