/**
 * What differs between the programs we run, as data: how to start each one,
 * where its status comes from, how a wake and a prompt go in, how it shows a
 * full redraw (the jiggle chain), how to resume it and how its chat tools and
 * status hooks are wired. Settle markers and statuses were read off the
 * recordings in test/fixtures/recordings.
 */
import type { Activity, ActivitySource } from './activity.js';
import { NO_CONVERSATION, type ConversationRules } from './conversation.js';

export interface AgentKind {
  name: string;
  /** The program `new --agent <kind>` runs (null: the user's $SHELL). */
  command: string | null;
  /** Flags it always gets, before the user's extra arguments. */
  args: readonly string[];
  /** Extra environment for it. */
  env: Readonly<Record<string, string>>;
  /** Where its status comes from, best first (src/core/agents/activity.ts). */
  statusSources: readonly ActivitySource[];
  /** What each of its lifecycle hooks means (`agent-board hook <event>`). */
  hookEvents: Readonly<Record<string, Activity | 'session'>>;
  /** Output that proves a full redraw, for the jiggle chain. */
  settleMarkers: readonly string[];
  /**
   * How to make it redraw. `size`: shrink the PTY by a column and put it back
   * (Node programs ignore a SIGWINCH that does not change the size). `winch`:
   * SIGWINCH to the foreground process group with the size unchanged (dtach's
   * way; nothing reflows).
   */
  jiggle: 'size' | 'winch';
  /**
   * How long `send` waits between a prompt's text and its Enter. TUIs that
   * detect pastes by timing take an Enter that follows the text too closely as
   * part of the paste (a newline, not a submit); 150 ms is the floor.
   */
  enterDelayMs: number;
  /**
   * Its idle screen repaints without end (Claude Code's spinner and status
   * line), so a quiet gap never comes: a pending wake gets the hard cap
   * (src/core/chat/wake-dispatcher.ts). Off for everything that does go quiet.
   */
  repaintStarved: boolean;
  /**
   * Enter waits until the program has echoed the text (at most
   * ENTER_ECHO_WAIT_MS): TUIs that tell a paste by timing (Gemini takes an
   * Enter within 30 ms of the previous key as a newline) read text and Enter
   * in one go when they were starved of CPU, and the prompt is not sent.
   */
  enterAfterEcho: boolean;
  /** Several lines go in as one bracketed paste (when the program enabled it), or typed as they are. */
  multiline: 'bracketed-paste' | 'typed';
  /** How its own conversation is named, resumed and forked (src/core/agents/conversation.ts; docs/agents.md "Resume and fork"). */
  conversation: ConversationRules;
  /** How its hooks and the chat's MCP tools are wired for one session (see wiringFor). */
  wiring: 'claude' | 'codex' | 'gemini' | null;
}

/** No agent kind submits sooner than this after the text. */
export const MIN_ENTER_DELAY_MS = 150;

const BASE = { args: [], env: {}, hookEvents: {}, multiline: 'bracketed-paste', conversation: NO_CONVERSATION, wiring: null, repaintStarved: false, enterAfterEcho: false } as const;

/** The longest an Enter waits for the program to echo a prompt's text (enterAfterEcho). */
export const ENTER_ECHO_WAIT_MS = 1500;

export const AGENT_KINDS: Readonly<Record<string, AgentKind>> = Object.freeze({
  // A shell, or whatever full-screen program runs in it (vim, htop, less): bytes are all it says.
  shell: { ...BASE, name: 'shell', command: null, statusSources: ['bytes'], settleMarkers: ['\x1b[2J'], jiggle: 'winch', enterDelayMs: MIN_ENTER_DELAY_MS },
  // Claude Code never clears the screen; a full redraw homes and erases line by line. Its idle
  // screen repaints forever, hence the cap. Hooks through --settings, never the user's files.
  claude: {
    ...BASE,
    name: 'claude',
    command: 'claude',
    statusSources: ['hook', 'title', 'screen'],
    hookEvents: { UserPromptSubmit: 'busy', Stop: 'idle', Notification: 'waiting', SessionStart: 'session' },
    settleMarkers: ['\x1b[H\x1b[2K'],
    jiggle: 'size',
    enterDelayMs: 400,
    repaintStarved: true,
    // A conversation id of ours from the start; --fork-session takes a --session-id for the fork's new one.
    conversation: {
      id: 'given',
      start: ['--session-id', '{id}'],
      resume: ['--resume', '{id}'],
      fork: ['--resume', '{id}', '--fork-session', '--session-id', '{newId}'],
      forkId: 'given',
      first: false,
      picks: ['--session-id', '--resume', '-r', '--continue', '-c', '--fork-session', '--from-pr', '--teleport'],
      printed: 'claude --resume ([0-9a-f-]{36})',
      home: { dir: '.claude', env: { name: 'CLAUDE_CONFIG_DIR', is: 'dir' } },
      saved: 'projects/*/{id}.jsonl',
    },
    wiring: 'claude',
  },
  // Codex (ratatui) homes and erases to the end of the screen inside a synchronized update.
  codex: {
    ...BASE,
    name: 'codex',
    command: 'codex',
    statusSources: ['hook', 'title', 'screen'],
    hookEvents: { 'agent-turn-complete': 'idle' },
    settleMarkers: ['\x1b[1;1H\x1b[J', '\x1b[2J'],
    jiggle: 'size',
    enterDelayMs: 250,
    enterAfterEcho: true,
    // No id of ours: its notify hook names the thread (`thread-id`) after each turn. `resume` and `fork` are
    // subcommands. A fork into another folder (a worktree) would ask which folder to use, unless told: -C .
    conversation: {
      id: 'learned',
      start: [],
      resume: ['resume', '{id}'],
      fork: ['fork', '{id}', '-C', '.'],
      forkId: 'learned',
      first: true,
      picks: ['resume', 'fork'],
      printed: 'codex resume ([0-9a-f-]{36})',
      home: { dir: '.codex', env: { name: 'CODEX_HOME', is: 'dir' } },
      saved: 'sessions/*/*/*/rollout-*-{id}.jsonl',
    },
    wiring: 'codex',
  },
  // Gemini CLI (Ink) erases its previous frame line by line, upwards.
  gemini: {
    ...BASE,
    name: 'gemini',
    command: 'gemini',
    statusSources: ['hook', 'title', 'screen'],
    hookEvents: { BeforeAgent: 'busy', AfterAgent: 'idle', Notification: 'waiting', SessionStart: 'session' },
    settleMarkers: ['\x1b[2K\x1b[1A\x1b[2K'],
    jiggle: 'size',
    enterDelayMs: 250,
    enterAfterEcho: true,
    // An id of ours from the start (--resume takes the UUID too). No fork flag: --session-file imports a
    // copy of the saved conversation under a new id of its own, which its SessionStart hook then names.
    conversation: {
      id: 'given',
      start: ['--session-id', '{id}'],
      resume: ['--resume', '{id}'],
      fork: ['--session-file', '{file}'],
      forkId: 'learned',
      first: false,
      picks: ['--session-id', '--resume', '-r', '--session-file'],
      printed: null,
      home: { dir: '.gemini', env: { name: 'GEMINI_CLI_HOME', is: 'home' } },
      saved: 'tmp/*/chats/session-*-{id8}.json*',
    },
    wiring: 'gemini',
  },
  // pi-tui starts every full render with a full clear; its title is constant, so the screen speaks.
  pi: {
    ...BASE,
    name: 'pi',
    command: 'pi',
    statusSources: ['screen', 'bytes'],
    settleMarkers: ['\x1b[2J'],
    jiggle: 'size',
    enterDelayMs: 200,
    // pi takes no id, but a session folder of ours: its conversation (and a /new) lands there, and -c
    // continues the latest in it (a fresh one when none was saved). --fork copies a saved file into a new folder.
    conversation: {
      id: 'given',
      start: ['--session-dir', '{home}/sessions/agent-board-{id}'],
      resume: ['--session-dir', '{home}/sessions/agent-board-{id}', '-c'],
      fork: ['--session-dir', '{home}/sessions/agent-board-{newId}', '--fork', '{file}'],
      forkId: 'given',
      first: false,
      picks: ['--session-dir', '--session', '--continue', '-c', '--resume', '-r', '--fork', '--no-session'],
      printed: null,
      home: { dir: '.pi/agent', env: { name: 'PI_CODING_AGENT_DIR', is: 'dir' } },
      saved: 'sessions/agent-board-{id}/*.jsonl',
    },
  },
  // Our built-in demo agent (src/demo): a Claude-like title and footer, a full clear per render.
  demo: {
    ...BASE,
    name: 'demo',
    command: null,
    statusSources: ['title', 'screen'],
    settleMarkers: ['\x1b[2J'],
    jiggle: 'size',
    enterDelayMs: MIN_ENTER_DELAY_MS,
  },
});

/** How `ls` and the board name what runs: the kind, or `shell › claude` while an agent runs in a shell session. */
export function agentLabel(rec: { agent: string; foregroundAgent?: string }): string {
  return rec.foregroundAgent && rec.foregroundAgent !== rec.agent ? `${rec.agent} › ${rec.foregroundAgent}` : rec.agent;
}
