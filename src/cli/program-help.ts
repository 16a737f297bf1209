/** What the top-level help says after its commands: a first session, the board, attach and how to leave it. */

export const PROGRAM_HELP_AFTER = `
Examples:
  agent-board new -n api -- claude   start Claude Code in a session of its own
  agent-board                        the board: every session, live
  agent-board attach api             full screen; Ctrl-\\ detaches, api runs on
  agent-board send api "fix it"      type a prompt into api, exactly once
  agent-board --host box ls          the sessions of another machine, over ssh
  agent-board help attach            a command's options

Exit codes: docs/cli.md, "Exit codes".`;
