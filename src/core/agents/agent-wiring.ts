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
  /** Files to write (0600), by name, in `filesDir`. */
  files: Record<string, string>;
  /** Where `files` go: the session's folder, or another the program accepts (see WiringPlace). */
  filesDir?: string;
  /** Set when the kind's hooks could not be wired: one line, why and where its status comes from instead. */
  hooksNote?: string;
}

/**
 * Where a kind's wiring files may go. Gemini CLI reads a settings layer given
 * by path only if the file and every folder above it are root's and not
 * writable by group or others; the caller (which may touch the file system)
 * finds such a folder, or says why there is none.
 */
export type WiringPlace = { dir: string } | { none: string };

/** The name of the file Gemini CLI reads as its system settings layer, in the session folder. */
export const GEMINI_SETTINGS_FILE = 'gemini-settings.json';

const MCP_SERVER = { command: 'agent-board', args: ['mcp'] };

/** The system layer Gemini reads when we do not point it elsewhere: its settings (parsed) and the defaults file's path. */
export interface GeminiSystemLayer {
  settings?: Record<string, unknown>;
  defaultsPath?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `place` is where files go, so env can point at them (default: the session's
 * folder). `systemLayer` is the settings layer Gemini would read without us
 * (an administrator's), merged into ours so pointing Gemini at our file keeps it.
 */
export function wiringFor(kind: AgentKind, sessionDir: string, place: WiringPlace = { dir: sessionDir }, systemLayer: GeminiSystemLayer = {}): Wiring {
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
      if ('none' in place) {
        return { args: [], env: {}, files: {}, hooksNote: `gemini's hooks and chat tools are not wired: ${place.none}; its status comes from its title and screen` };
      }
      // Gemini wants JSON on a hook's stdout: --json prints {}.
      const ours = Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: hook(e, ' --json') }] }]]));
      const admin = systemLayer.settings ?? {};
      const adminHooks = (isObject(admin.hooks) ? admin.hooks : {});
      const hooks = { ...adminHooks, ...Object.fromEntries(Object.entries(ours).map(([e, h]) => [e, [...(Array.isArray(adminHooks[e]) ? adminHooks[e] : []), ...h]])) };
      const mcpServers = { ...(isObject(admin.mcpServers) ? admin.mcpServers : {}), 'agent-board': MCP_SERVER };
      // Its hook notifications would flash `agent-board hook ...` in the user's screen three times a turn.
      const hooksConfig = { notifications: false, ...(isObject(admin.hooksConfig) ? admin.hooksConfig : {}), enabled: true };
      return {
        args: [],
        // Moving the settings layer would move the defaults layer next to it (same folder): keep that where it was.
        env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: `${place.dir}/${GEMINI_SETTINGS_FILE}`, ...(systemLayer.defaultsPath ? { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: systemLayer.defaultsPath } : {}) },
        files: { [GEMINI_SETTINGS_FILE]: JSON.stringify({ ...admin, hooksConfig, hooks, mcpServers }, null, 2) },
        filesDir: place.dir,
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
 * demo) the words are the command itself. `conversation` is the words that
 * start, resume or fork the agent's own conversation (src/core/agents/conversation.ts):
 * after the user's words, or before them for a kind whose words are a
 * subcommand (Codex). Wiring flags go last, after the user's, so a wrapper
 * script sees the user's arguments first.
 */
export function launchFor(
  kind: AgentKind,
  words: readonly string[],
  o: { command?: string; conversation?: readonly string[]; sessionDir: string; shell: string; place?: WiringPlace; systemLayer?: GeminiSystemLayer },
): Launch {
  const wiring = wiringFor(kind, o.sessionDir, o.place, o.systemLayer);
  if (kind.command === null) {
    const [command, ...args] = words.length ? words : [o.command ?? o.shell];
    return { ...wiring, command: command!, args: [...args, ...wiring.args], env: { ...kind.env, ...wiring.env } };
  }
  const conv = o.conversation ?? [];
  const own = kind.conversation.first ? [...conv, ...words] : [...words, ...conv];
  return {
    ...wiring,
    command: o.command ?? kind.command,
    extraArgs: [...words],
    args: [...kind.args, ...own, ...wiring.args],
    env: { ...kind.env, ...wiring.env },
  };
}
