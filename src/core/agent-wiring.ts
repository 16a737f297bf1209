/**
 * Per-session wiring of an agent kind: its lifecycle hooks report to
 * `agent-board hook <kind> <event>` (which tells the session's runner), and
 * its MCP config offers the chat tools (`agent-board mcp`). Everything goes in
 * through flags, environment or a file in the session's own folder: the
 * user's settings files are never edited.
 */
import type { AgentKind } from './agent-kinds.js';

export interface Wiring {
  args: string[];
  env: Record<string, string>;
  /** Files to write in the session's folder (0600), by name. */
  files: Record<string, string>;
}

/** The name of the file Gemini CLI reads as its system settings layer, in the session folder. */
export const GEMINI_SETTINGS_FILE = 'gemini-settings.json';

const MCP_SERVER = { command: 'agent-board', args: ['mcp'] };

/** `sessionDir` is where files go, so env can point at them. */
export function wiringFor(kind: AgentKind, sessionDir: string): Wiring {
  const hook = (event: string, extra = '') => `agent-board hook ${kind.name} ${event}${extra}`;
  const events = Object.keys(kind.hookEvents);
  switch (kind.wiring) {
    case 'claude': {
      const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: hook(e) }] }]]));
      return {
        args: ['--settings', JSON.stringify({ hooks }), '--mcp-config', JSON.stringify({ mcpServers: { 'agent-board': MCP_SERVER } })],
        env: {},
        files: {},
      };
    }
    case 'codex':
      // Codex runs `notify` with the event as JSON in the last argument, on each finished turn.
      return {
        args: [
          '-c',
          `notify=${JSON.stringify(['agent-board', 'hook', 'codex', 'agent-turn-complete'])}`,
          '-c',
          `mcp_servers.agent-board.command=${JSON.stringify(MCP_SERVER.command)}`,
          '-c',
          `mcp_servers.agent-board.args=${JSON.stringify(MCP_SERVER.args)}`,
        ],
        env: {},
        files: {},
      };
    case 'gemini': {
      // Gemini wants JSON on a hook's stdout: --json prints {}.
      const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: hook(e, ' --json') }] }]]));
      const file = `${sessionDir}/${GEMINI_SETTINGS_FILE}`;
      return {
        args: [],
        env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: file },
        files: { [GEMINI_SETTINGS_FILE]: JSON.stringify({ hooksConfig: { enabled: true }, hooks, mcpServers: { 'agent-board': MCP_SERVER } }, null, 2) },
      };
    }
    default:
      return { args: [], env: {}, files: {} };
  }
}

/** What a session of a kind runs: program, full argv, the user's extra arguments, env and files. */
export interface Launch extends Wiring {
  command: string;
  extraArgs?: string[];
}

/**
 * `new --agent <kind> [--command PROG] [-- words...]`: for kinds with a
 * program of their own the words are extra arguments to it (`--command`
 * replaces the program: a wrapper, another install); for `shell` (and the
 * demo) the words are the command itself. A resume id adds the kind's resume
 * flags. Wiring flags go last, after the user's, so a wrapper script sees the
 * user's arguments first.
 */
export function launchFor(kind: AgentKind, words: readonly string[], o: { command?: string; resumeId?: string; sessionDir: string; shell: string }): Launch {
  const wiring = wiringFor(kind, o.sessionDir);
  if (kind.command === null) {
    const [command, ...args] = words.length ? words : [o.command ?? o.shell];
    return { ...wiring, command: command!, args: [...args, ...wiring.args], env: { ...kind.env, ...wiring.env } };
  }
  const resume = o.resumeId && kind.resume ? kind.resume.args.map((a) => a.replace('{id}', o.resumeId!)) : [];
  return {
    ...wiring,
    command: o.command ?? kind.command,
    extraArgs: [...words],
    args: [...kind.args, ...words, ...resume, ...wiring.args],
    env: { ...kind.env, ...wiring.env },
  };
}
