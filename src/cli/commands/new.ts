/** `agent-board new`: start a session in the background (optionally in its own git worktree) and print its id. */
import type { Command } from 'commander';
import { recognizeKind } from '../../client/recognize-kind.js';
import { createSession, DEFAULT_SCROLLBACK, type NewSessionOptions } from '../../client/sessions.js';
import { createWorktreeSession } from '../../client/worktree-session.js';
import { kindRegistry } from '../../state/kind-files.js';
import { EXIT, UserError } from '../../state/errors.js';
import { getHome } from '../context.js';
import { attachTo } from '../attach-to.js';
import { DEFAULT_DETACH_KEY, parseDetachKey } from '../../core/terminal/detach-key.js';
import { cliTime } from '../cli-time.js';
import { wholeNumber } from '../whole-number.js';

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
}

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
    .argument('[command...]', 'after --: the program and its arguments (default $SHELL); with --agent, extra arguments for the agent')
    .action(async (cmd: string[], o: NewFlags) => {
      if (o.worktree === undefined && (o.base !== undefined || o.reuseBranch || o.setup !== undefined)) {
        throw new UserError('--base, --reuse-branch and --setup go with --worktree', EXIT.usage);
      }
      const scrollback = wholeNumber(o.scrollback, '--scrollback');
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
      const names = [...registry.kinds.keys()];
      if (o.agent !== undefined && !registry.kinds.has(o.agent)) {
        throw new UserError(`unknown agent kind "${o.agent}"; the kinds are: ${names.join(', ')}`, EXIT.usage);
      }
      if (o.agent === undefined) {
        // `new -- claude ...`: the kind the program is, with its wiring, as if --agent had been given.
        const kind = o.command ? null : recognizeKind(cmd, o.cwd, registry);
        if (kind) {
          o.agent = kind;
          o.command = cmd[0];
          cmd = cmd.slice(1);
        } else {
          o.agent = 'shell';
        }
      }
      // The demo kind's program is ours: with no words, the demo agent (it answers whoever mentions it).
      if (o.agent === 'demo' && cmd.length === 0 && !o.command) {
        const { DEMO_AGENT } = await import('../../demo/demo-setup.js');
        cmd = [process.execPath, DEMO_AGENT, '--room', o.room];
      }
      // Agents with a program of their own take the words as extra arguments (src/core/agents/agent-wiring.ts).
      const ownProgram = registry.kinds.get(o.agent)!.command !== null;
      const [command, ...args] = ownProgram ? [o.command ?? '', ...cmd] : cmd.length ? cmd : [o.command ?? process.env.SHELL ?? '/bin/sh'];
      const opts: NewSessionOptions = {
        name: o.name,
        command: ownProgram ? (o.command ?? '') : command!,
        args: ownProgram ? [] : args,
        words: ownProgram ? cmd : undefined,
        cwd: o.cwd,
        cols: process.stdout.columns,
        rows: process.stdout.rows,
        agent: o.agent,
        room: o.room,
        scrollback,
      };
      const rec = o.worktree === undefined
        ? await createSession(getHome(), opts, cliTime())
        : (await createWorktreeSession(getHome(), opts, {
            branch: typeof o.worktree === 'string' ? o.worktree : undefined,
            base: o.base,
            reuse: o.reuseBranch === true,
            setup: o.setup,
            onSkipped: (line) => process.stderr.write(`agent-board: .worktreeinclude: ${line}\n`),
          }, cliTime())).record;
      if (o.attach) {
        await attachTo(rec.id, { detachKey: o.detachKey });
        return;
      }
      process.stdout.write(`${rec.id}\n`);
    });
}

