/**
 * The top-level help, for a newcomer: the commands in groups, one line each, then a first
 * session, the board, attach and how to leave it. Only the whole program (help, an unknown word)
 * loads this: a run of one command never shows it.
 */
import type { Command } from 'commander';

/** Each command's group and its line in the top-level list (its own help keeps the longer description). */
const TOP_LEVEL: Record<string, { group: string; summary: string }> = {
  new: { group: 'Sessions', summary: 'start a session (an agent, a shell, any program)' },
  ls: { group: 'Sessions', summary: 'list the sessions and their states' },
  attach: { group: 'Sessions', summary: 'full screen; Ctrl-\\ detaches, it runs on' },
  peek: { group: 'Sessions', summary: "print a session's screen" },
  send: { group: 'Sessions', summary: 'type a prompt into a session, exactly once' },
  explain: { group: 'Sessions', summary: 'why a session shows its state' },
  kill: { group: 'Sessions', summary: "end a session's program" },
  rm: { group: 'Sessions', summary: 'remove an ended session' },
  rename: { group: 'Sessions', summary: 'give a session a new name' },
  restart: { group: 'Sessions', summary: 'start it again in place, conversation resumed' },
  revive: { group: 'Sessions', summary: 'bring lost sessions back (after a reboot)' },
  fork: { group: 'Sessions', summary: "a new session continuing one's conversation" },
  diff: { group: 'Worktrees', summary: "what a worktree session changed" },
  merge: { group: 'Worktrees', summary: "merge a worktree session's branch" },
  pr: { group: 'Worktrees', summary: "push its branch and open a pull request" },
  chat: { group: 'Rooms', summary: "a room's chat: post, read, tail, continue" },
  mcp: { group: 'Rooms', summary: 'the chat as MCP tools, for agents' },
  demo: { group: 'Rooms', summary: 'two scripted agents talking (no AI, no key)' },
  board: { group: 'The board and this machine', summary: 'the board (the default command)' },
  web: { group: 'The board and this machine', summary: 'the board in a browser or on a phone' },
  doctor: { group: 'The board and this machine', summary: 'check this machine and the agent CLIs' },
  bridge: { group: 'The board and this machine', summary: 'a session over ssh (used by --host)' },
};

const HELP_GROUP = 'The board and this machine';

const PROGRAM_HELP_AFTER = `
Examples:
  agent-board new -n api -- claude   start Claude Code in a session of its own
  agent-board                        the board: every session, live
  agent-board attach api             full screen; Ctrl-\\ detaches, api runs on
  agent-board send api "fix it"      type a prompt into api, exactly once
  agent-board --host box ls          the sessions of another machine, over ssh
  agent-board help attach            a command's options

Exit codes: docs/cli.md, "Exit codes".`;

/** The whole program's help: groups, one line a command (no `[options]` in the list: each command's help has them), examples. */
export function dressTopLevelHelp(program: Command): void {
  for (const c of program.commands) {
    const top = TOP_LEVEL[c.name()];
    if (top) c.summary(top.summary).helpGroup(`${top.group}:`);
  }
  program
    .commandsGroup(`${HELP_GROUP}:`) // for the help command, made next
    .helpCommand('help [command]', "a command's help (help alone: this one)")
    .configureHelp({ subcommandTerm: (c) => [c.name(), ...c.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}${a.variadic ? '...' : ''}]`))].join(' ') })
    .addHelpText('after', PROGRAM_HELP_AFTER);
}
