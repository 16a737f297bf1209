/**
 * The labelled moments of the recordings in test/fixtures/recordings: what a
 * person watching would say each source and the whole session show at one
 * time. Used by the in-process detector test
 * (test/integration/detectors-recordings.test.ts) and by the runner playback
 * test (test/integration/recordings-runner.test.ts), which plays each
 * recording through a real session and judges the runner's status.
 */
import type { Activity } from '../../src/core/agents/activity.js';
import { SIZE_MOMENTS } from './moments-sizes.js';

// ---------------------------------------------------------------------------
// The labelled moments. `title` is absent for kinds whose title carries no
// status (pi). Times are ms since spawn; the operator's inputs are in the
// comments (the test checks the moments sit where the comments say).

export interface Moment {
  file: string;
  at: number;
  name: string;
  /** The operator input that must come before this moment (its text), if any. */
  after?: string;
  /** ...and the one that must come after it. */
  before?: string;
  title?: Activity | null;
  screen: Activity | null;
  best: Activity | null;
  /**
   * What the runner must show, where it is not `best`: the runner has sources
   * the title-and-screen replay has not (bytes for pi) and keeps its last
   * state when every source falls silent.
   */
  runner?: Activity;
}

const ESC = '\x1b';
const UP = '\x1b[A';
const DOWN = '\x1b[B';

export const MOMENTS: Moment[] = [
  // Claude Code 2.1: API-key dialog, ↑ to "Yes" at 7.0 s, Enter at 7.5 s, prompt typed at 11.0 s, Enter at 11.4 s,
  // resize 119/120 at 21 s, second prompt at 24.0 s, Enter at 24.4 s, Esc at 28.0 s.
  { file: 'claude-120x35.jsonl', at: 5000, name: 'claude: the API-key dialog', before: UP, title: null, screen: 'waiting', best: 'waiting' },
  { file: 'claude-120x35.jsonl', at: 7400, name: 'claude: the API-key dialog, "Yes" picked', after: UP, before: '\r', title: null, screen: 'waiting', best: 'waiting' },
  // Disagreement: the title turns `✳` 38 ms before the answered dialog is erased; the dialog is older news.
  { file: 'claude-120x35.jsonl', at: 7585, name: 'claude: dialog answered, title idle before the repaint', after: '\r', title: 'idle', screen: 'waiting', best: 'idle' },
  { file: 'claude-120x35.jsonl', at: 9000, name: 'claude: the prompt after the dialog', after: '\r', before: 'please summarize the project', title: 'idle', screen: 'idle', best: 'idle' },
  // While the user types, Claude hides `? for shortcuts` and the box is not empty: the screen says nothing.
  { file: 'claude-120x35.jsonl', at: 11200, name: 'claude: the user typing a prompt', after: 'please summarize the project', before: '\r', title: 'idle', screen: null, best: 'idle' },
  { file: 'claude-120x35.jsonl', at: 13000, name: 'claude: first turn, thinking', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'claude-120x35.jsonl', at: 16950, name: 'claude: first turn, reply on screen', title: 'busy', screen: 'busy', best: 'busy' },
  // Disagreement: the title turns `✳` one frame (4 ms) before the footer loses `esc to interrupt`.
  { file: 'claude-120x35.jsonl', at: 16965, name: 'claude: turn over, title first', title: 'idle', screen: 'busy', best: 'idle' },
  { file: 'claude-120x35.jsonl', at: 20000, name: 'claude: after the first turn', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-120x35.jsonl', at: 23000, name: 'claude: after the resize', before: 'and now a second question', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-120x35.jsonl', at: 27000, name: 'claude: second turn', after: 'and now a second question', before: ESC, title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'claude-120x35.jsonl', at: 30000, name: 'claude: second turn interrupted with Esc', after: ESC, title: 'idle', screen: 'idle', best: 'idle' },

  // Codex CLI 0.169, not signed in: the sign-in menu (alternate screen), ↓ at 4.0 and 4.5 s, resize at 5 s, Enter at 6 s, Esc at 8 s.
  { file: 'codex-120x35.jsonl', at: 3500, name: 'codex: the sign-in menu', before: DOWN, title: null, screen: 'waiting', best: 'waiting' },
  { file: 'codex-120x35.jsonl', at: 4800, name: 'codex: the sign-in menu, third item', after: DOWN, title: null, screen: 'waiting', best: 'waiting' },
  { file: 'codex-120x35.jsonl', at: 5800, name: 'codex: the sign-in menu after the resize', before: '\r', title: null, screen: 'waiting', best: 'waiting' },
  { file: 'codex-120x35.jsonl', at: 9500, name: 'codex: the sign-in menu after Esc', after: ESC, title: null, screen: 'waiting', best: 'waiting' },

  // Codex CLI 0.171 with a provider: prompt typed at 5.0 s, Enter at 5.4 s; the reply streams from 5.7 s to 8.5 s.
  // (The second prompt, typed at 14 s, never starts a turn in this recording: no output follows its Enter.)
  { file: 'codex-turns-120x35.jsonl', at: 4000, name: 'codex: idle prompt', before: 'hello codex, summarize the project', title: 'idle', screen: null, best: 'idle' },
  { file: 'codex-turns-120x35.jsonl', at: 5600, name: 'codex: turn, Working line', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  // Disagreement (of sorts): while the reply streams the Working line is gone; the screen has no busy sign.
  { file: 'codex-turns-120x35.jsonl', at: 7000, name: 'codex: turn, reply streaming', after: '\r', title: 'busy', screen: null, best: 'busy' },
  { file: 'codex-turns-120x35.jsonl', at: 10000, name: 'codex: after the turn', title: 'idle', screen: null, best: 'idle' },
  { file: 'codex-turns-120x35.jsonl', at: 13000, name: 'codex: after the resize', before: 'and a second question', title: 'idle', screen: null, best: 'idle' },

  // Gemini CLI 0.61, untrusted folder: trust dialog, ↓ at 6.0 s, ↑ at 6.5 s, Enter at 7.0 s, restart, auth dialog, resize at 10 s.
  // Disagreement: the title says `◇  Ready` under both dialogs; the dialog came up after it, so it wins.
  { file: 'gemini-120x35.jsonl', at: 4000, name: 'gemini: the trust dialog', before: DOWN, title: 'idle', screen: 'waiting', best: 'waiting' },
  { file: 'gemini-120x35.jsonl', at: 6800, name: 'gemini: the trust dialog after the arrows', after: UP, before: '\r', title: 'idle', screen: 'waiting', best: 'waiting' },
  // Answered: the box is still drawn, with "Gemini CLI is restarting..." under it. The title still says Ready.
  { file: 'gemini-120x35.jsonl', at: 7200, name: 'gemini: trust answered, restarting', after: '\r', title: 'idle', screen: null, best: 'idle' },
  // Nothing says anything while it restarts; the runner keeps its last state, the Ready of the moment before.
  { file: 'gemini-120x35.jsonl', at: 8000, name: 'gemini: restarting, title cleared', after: '\r', title: null, screen: null, best: null, runner: 'idle' },
  { file: 'gemini-120x35.jsonl', at: 9800, name: 'gemini: the authentication dialog', title: 'idle', screen: 'waiting', best: 'waiting' },
  { file: 'gemini-120x35.jsonl', at: 10200, name: 'gemini: the authentication dialog after the resize', title: 'idle', screen: 'waiting', best: 'waiting' },

  // Gemini CLI 0.61 with an API key: prompt at 7.0 s, Enter at 7.4 s, resize at 15 s, second prompt at 17.0 s, Enter at 17.4 s, Esc at 18.6 s.
  { file: 'gemini-turns-120x35.jsonl', at: 5000, name: 'gemini: idle prompt', before: 'hello gemini, summarize the project', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'gemini-turns-120x35.jsonl', at: 8500, name: 'gemini: turn, thinking and streaming', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'gemini-turns-120x35.jsonl', at: 12000, name: 'gemini: after the turn', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'gemini-turns-120x35.jsonl', at: 16000, name: 'gemini: after the resize', before: 'and a second question', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'gemini-turns-120x35.jsonl', at: 18000, name: 'gemini: second turn', after: 'and a second question', before: ESC, title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'gemini-turns-120x35.jsonl', at: 18700, name: 'gemini: second turn cancelled with Esc', after: ESC, title: 'idle', screen: 'idle', best: 'idle' },

  // pi 0.73, no model reachable: "hello pi" typed at 4.0 s, resize at 5 s, Enter at 7.0 s (error, retry spinner), `/` at 9.0 s, Esc at 10.0 s, resize to 100x30 at 11 s.
  { file: 'pi-120x35.jsonl', at: 3000, name: 'pi: idle at its prompt', before: 'hello pi', screen: 'idle', best: 'idle' },
  { file: 'pi-120x35.jsonl', at: 6000, name: 'pi: text in the editor', after: 'hello pi', before: '\r', screen: 'idle', best: 'idle' },
  { file: 'pi-120x35.jsonl', at: 7500, name: 'pi: working', after: '\r', screen: 'busy', best: 'busy' },
  { file: 'pi-120x35.jsonl', at: 8500, name: 'pi: retrying', after: '\r', before: '/', screen: 'busy', best: 'busy' },
  { file: 'pi-120x35.jsonl', at: 9500, name: 'pi: retrying, the / menu open', after: '/', before: ESC, screen: 'busy', best: 'busy' },
  { file: 'pi-120x35.jsonl', at: 12500, name: 'pi: retrying again after the resize to 100x30', after: ESC, screen: 'busy', best: 'busy' },

  // pi 0.73 with a provider: prompt at 4.0 s, Enter at 4.4 s, resize at 11 s, second prompt at 13.0 s, Enter at 13.4 s, Esc at 14.6 s.
  { file: 'pi-turns-120x35.jsonl', at: 3000, name: 'pi: idle prompt', before: 'hello pi, summarize the project', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-120x35.jsonl', at: 6000, name: 'pi: turn, reply streaming', after: '\r', screen: 'busy', best: 'busy' },
  { file: 'pi-turns-120x35.jsonl', at: 10000, name: 'pi: after the turn', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-120x35.jsonl', at: 12000, name: 'pi: after the resize', before: 'and a second question', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-120x35.jsonl', at: 14000, name: 'pi: second turn', after: 'and a second question', before: ESC, screen: 'busy', best: 'busy' },
  { file: 'pi-turns-120x35.jsonl', at: 16000, name: 'pi: second turn aborted with Esc', after: ESC, screen: 'idle', best: 'idle' },

  // ---- Recorded with test/fixtures/record/record.mjs at other sizes (Claude Code 2.1.332, Codex 0.171, Gemini CLI 0.61, pi 0.73.1).

  // Claude Code 2.1.332 at 80x24: prompt typed at 5.9 s, Enter at 6.3 s, resize to 100x30 at 13.5 s, second prompt at 16.0 s,
  // Enter at 16.4 s, Esc at 17.8 s. Its busy title is `◐ Claude Code` or `◑ Claude Code` (not braille): busy, as a person reads it.
  { file: 'claude-turns-80x24.jsonl', at: 3000, name: 'claude 80x24: idle prompt', before: 'please summarize the project', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-turns-80x24.jsonl', at: 6100, name: 'claude 80x24: the user typing a prompt', after: 'please summarize the project', before: '\r', title: 'idle', screen: null, best: 'idle' },
  { file: 'claude-turns-80x24.jsonl', at: 8000, name: 'claude 80x24: first turn', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'claude-turns-80x24.jsonl', at: 11000, name: 'claude 80x24: after the first turn', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-turns-80x24.jsonl', at: 15000, name: 'claude 80x24: after the resize to 100x30', before: 'and a second question', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-turns-80x24.jsonl', at: 17300, name: 'claude 80x24: second turn', after: 'and a second question', before: ESC, title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'claude-turns-80x24.jsonl', at: 19000, name: 'claude 80x24: second turn interrupted with Esc', after: ESC, title: 'idle', screen: 'idle', best: 'idle' },

  // Claude Code 2.1.332 at 100x30, --permission-mode default, a mock that asks for Bash `touch notes.txt`: prompt at 6.1 s,
  // Enter at 6.5 s, "Do you want to proceed?" from 7.2 s, Enter (1. Yes) at 11.5 s, the turn goes on to 13.7 s, resize to 80x24 at 16.8 s.
  // The title shows `✳` (idle) under the dialog.
  { file: 'claude-permission-100x30.jsonl', at: 4000, name: 'claude permission: idle prompt', before: 'make a notes file', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-permission-100x30.jsonl', at: 9000, name: 'claude permission: "Do you want to proceed?"', after: '\r', title: 'idle', screen: 'waiting', best: 'waiting' },
  { file: 'claude-permission-100x30.jsonl', at: 12500, name: 'claude permission: allowed, the turn goes on', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'claude-permission-100x30.jsonl', at: 15000, name: 'claude permission: after the turn', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'claude-permission-100x30.jsonl', at: 18000, name: 'claude permission: after the resize to 80x24', title: 'idle', screen: 'idle', best: 'idle' },

  // Codex CLI 0.171 at 100x30: prompt at 6.9 s, Enter at 7.3 s, reply until 10.2 s, resize to 80x24 at 13.3 s, second prompt at 15.8 s,
  // Enter at 16.2 s, Esc at 17.6 s.
  { file: 'codex-turns-100x30.jsonl', at: 5000, name: 'codex 100x30: idle prompt', before: 'hello codex, summarize the project', title: 'idle', screen: null, best: 'idle' },
  { file: 'codex-turns-100x30.jsonl', at: 7450, name: 'codex 100x30: turn, Working line', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'codex-turns-100x30.jsonl', at: 9000, name: 'codex 100x30: turn, reply streaming', after: '\r', title: 'busy', screen: null, best: 'busy' },
  { file: 'codex-turns-100x30.jsonl', at: 12000, name: 'codex 100x30: after the turn', title: 'idle', screen: null, best: 'idle' },
  { file: 'codex-turns-100x30.jsonl', at: 15000, name: 'codex 100x30: after the resize to 80x24', before: 'and a second question', title: 'idle', screen: null, best: 'idle' },
  { file: 'codex-turns-100x30.jsonl', at: 17000, name: 'codex 100x30: second turn', after: 'and a second question', before: ESC, title: 'busy', screen: null, best: 'busy' },
  { file: 'codex-turns-100x30.jsonl', at: 19000, name: 'codex 100x30: second turn interrupted with Esc', after: ESC, title: 'idle', screen: null, best: 'idle' },

  // Gemini CLI 0.61 at 160x45: prompt at 7.8 s, Enter at 8.2 s, reply until 11.2 s, resize to 100x30 at 14.2 s, second prompt at 16.7 s,
  // Enter at 17.1 s, Esc at 18.5 s. (SIGTERM at 21 s is ignored; SIGKILL at 26 s.)
  { file: 'gemini-turns-160x45.jsonl', at: 5000, name: 'gemini 160x45: idle prompt', before: 'hello gemini, summarize the project', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'gemini-turns-160x45.jsonl', at: 8000, name: 'gemini 160x45: the user typing a prompt', after: 'hello gemini, summarize the project', before: '\r', title: 'idle', screen: null, best: 'idle' },
  { file: 'gemini-turns-160x45.jsonl', at: 10000, name: 'gemini 160x45: turn', after: '\r', title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'gemini-turns-160x45.jsonl', at: 13000, name: 'gemini 160x45: after the turn', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'gemini-turns-160x45.jsonl', at: 15500, name: 'gemini 160x45: after the resize to 100x30', before: 'and a second question', title: 'idle', screen: 'idle', best: 'idle' },
  { file: 'gemini-turns-160x45.jsonl', at: 18000, name: 'gemini 160x45: second turn', after: 'and a second question', before: ESC, title: 'busy', screen: 'busy', best: 'busy' },
  { file: 'gemini-turns-160x45.jsonl', at: 19500, name: 'gemini 160x45: second turn cancelled with Esc', after: ESC, title: 'idle', screen: 'idle', best: 'idle' },

  // pi 0.73.1 at 80x24: prompt at 4.0 s, Enter at 4.4 s, reply until 7.4 s, resize to 160x45 at 10.4 s, second prompt at 12.9 s,
  // Enter at 13.3 s, Esc at 14.7 s.
  { file: 'pi-turns-80x24.jsonl', at: 3500, name: 'pi 80x24: idle prompt', before: 'hello pi, summarize the project', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-80x24.jsonl', at: 4300, name: 'pi 80x24: the user typing a prompt', after: 'hello pi, summarize the project', before: '\r', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-80x24.jsonl', at: 6000, name: 'pi 80x24: turn', after: '\r', screen: 'busy', best: 'busy' },
  { file: 'pi-turns-80x24.jsonl', at: 9000, name: 'pi 80x24: after the turn', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-80x24.jsonl', at: 11500, name: 'pi 80x24: after the resize to 160x45', before: 'and a second question', screen: 'idle', best: 'idle' },
  { file: 'pi-turns-80x24.jsonl', at: 14000, name: 'pi 80x24: second turn', after: 'and a second question', before: ESC, screen: 'busy', best: 'busy' },
  { file: 'pi-turns-80x24.jsonl', at: 16000, name: 'pi 80x24: second turn aborted with Esc', after: ESC, screen: 'idle', best: 'idle' },
  ...SIZE_MOMENTS,
];
