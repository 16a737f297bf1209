/**
 * What differs between the programs we run, as data. For now: how each one
 * shows it has fully redrawn after a resize or SIGWINCH (the jiggle chain's
 * settle marker), read off the recordings in test/fixtures/recordings.
 */

export interface AgentKind {
  name: string;
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
   * (src/core/wake-dispatcher.ts). Off for everything that does go quiet.
   */
  repaintStarved: boolean;
}

/** No agent kind submits sooner than this after the text. */
export const MIN_ENTER_DELAY_MS = 150;

export const AGENT_KINDS: Readonly<Record<string, AgentKind>> = Object.freeze({
  // A shell, or whatever full-screen program runs in it (vim, htop, less).
  shell: { name: 'shell', settleMarkers: ['\x1b[2J'], jiggle: 'winch', enterDelayMs: MIN_ENTER_DELAY_MS, repaintStarved: false },
  // Claude Code never clears the screen; a full redraw homes and erases line by line.
  claude: { name: 'claude', settleMarkers: ['\x1b[H\x1b[2K'], jiggle: 'size', enterDelayMs: 400, repaintStarved: true },
  // Codex (ratatui) homes and erases to the end of the screen inside a synchronized update.
  codex: { name: 'codex', settleMarkers: ['\x1b[1;1H\x1b[J', '\x1b[2J'], jiggle: 'size', enterDelayMs: 250, repaintStarved: false },
  // Gemini CLI (Ink) erases its previous frame line by line, upwards.
  gemini: { name: 'gemini', settleMarkers: ['\x1b[2K\x1b[1A\x1b[2K'], jiggle: 'size', enterDelayMs: 250, repaintStarved: false },
  // pi-tui starts every full render with a full clear.
  pi: { name: 'pi', settleMarkers: ['\x1b[2J'], jiggle: 'size', enterDelayMs: 200, repaintStarved: false },
});

export function agentKind(name: string): AgentKind {
  return AGENT_KINDS[name] ?? AGENT_KINDS.shell!;
}
