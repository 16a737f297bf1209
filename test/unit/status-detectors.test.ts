/**
 * The status detectors on synthetic screens: for every pattern in the tables
 * a screen it must read and one it must not, the priority between patterns
 * (a dialog beats a busy footer beats an idle hint), where each pattern looks,
 * and the layering rule in src/core/agents/activity-layers.ts. The real screens are in
 * test/integration/detectors-recordings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { decideActivity, DIALOG_STALE_MS, layer, nextReading } from '../../src/core/agents/activity-layers.js';
import type { Activity, ActivityReading, ActivitySource } from '../../src/core/agents/activity.js';
import {
  activityFromScreen,
  activityFromTitle,
  ACTIVITY_PRIORITY,
  screenPatternMatches,
  screenRegion,
} from '../../src/core/agents/status-detectors.js';
import { DETECTORS as STATUS_DETECTORS, detectorsOf } from '../helpers/kinds.js';
import type { ScreenPattern } from '../../src/core/agents/status-detectors.js';

const ROWS = 24;
const RULE = '─'.repeat(80);

/** A screen of ROWS rows with these at the bottom, blank rows above, some rows with trailing spaces as xterm leaves them. */
function bottom(...rows: string[]): string[] {
  const padded = rows.map((r, i) => (i % 2 === 0 ? r : `${r}    `));
  return [...Array.from({ length: Math.max(0, ROWS - rows.length) }, () => ''), ...padded];
}

/** The same with some blank rows under, as when the live region does not reach the bottom. */
function withBlankBelow(rows: string[], blanks = 3): string[] {
  return [...rows.slice(blanks), ...Array.from({ length: blanks }, () => '')];
}

function pattern(name: string): ScreenPattern {
  for (const t of Object.values(STATUS_DETECTORS)) {
    const p = t.screen.find((x) => x.name === name);
    if (p) return p;
  }
  throw new Error(`no screen pattern ${name}`);
}

// ---------------------------------------------------------------------------
// Screens, after the recordings

const CLAUDE_HEADER = [' ▐▛███▜▌   Claude Code v2.1.197', '▝▜█████▛▘  Opus 4.8 (1M context) · API Usage Billing', '  ▘▘ ▝▝    ~/app', ''];
const CLAUDE_API_KEY = [
  RULE,
  '  Detected a custom API key in your environment',
  '',
  '  ANTHROPIC_API_KEY: sk-ant-...sk-ant-test-123',
  '',
  '  Do you want to use this API key?',
  '',
  '  ❯ 1. Yes',
  '    2. No (recommended)',
  '',
  '  Enter to confirm · Esc to cancel',
];
const CLAUDE_IDLE = [...CLAUDE_HEADER, RULE, '❯ ', RULE, '  ? for shortcuts · ← for agents                                    ● high · /effort'];
const CLAUDE_BUSY = [
  ...CLAUDE_HEADER,
  '❯ please summarize the project',
  '',
  '✻ Contemplating… (1s · ↓ 10 tokens)',
  RULE,
  '❯ ',
  RULE,
  '  esc to interrupt · ← for agents                                     ● high · /effort',
];
const CLAUDE_TYPING = [...CLAUDE_HEADER, RULE, '❯ please summarize the project ', RULE, '                                                  ● high · /effort'];

const CODEX_SIGN_IN = [
  '  Welcome to Codex, OpenAI\'s command-line coding agent',
  '',
  '  Choose how you want to use Codex.',
  '',
  '> 1. Sign in with ChatGPT',
  '     Usage included with Plus, Pro, Business, and Enterprise plans',
  '',
  '  2. Sign in with Device Code',
  '     Sign in from another device with a one-time code',
  '',
  '  3. Sign in another way',
  '     Use an API key or another provider',
  '',
  '  Press enter to continue',
];
const CODEX_LOGO = ['⣾⣿⣿⠃ ⢸⣿⣿⡇ ⢸⣿⣿⠋⠁  ⠈⠙⢻⣿⣿⣿⣶⣤⡀ ⠹⢿⣿⣷⡄', '⠈⢿⣿⣿⣦⡀⠈⠛⠿⣿⣿⣿⣿⣄⡀  ⢀⣠⣼⣿⣿  ⣿⣿⡇  ⣿⣿⣿⠇', '⠈⠙⠛⠿⠿⠿⠿⠛⠉'];
const CODEX_FOOTER = ['› Ask Codex to do anything', '', '  mock-model default · ~/app', '  ← for agents · ? for shortcuts                           ⚠ 2 warnings · f2 to view'];
const CODEX_WORKING = ['  >_ OpenAI Codex (v0.171.0)', '', '› hello codex, summarize the project', '', '• Working (0s • esc to interrupt)', '', ...CODEX_FOOTER];
const CODEX_STREAMING = ['  >_ OpenAI Codex (v0.171.0)', '', '› hello codex, summarize the project', '', '• Mock reply: I read your message', '', ...CODEX_FOOTER];

const GEMINI_COMPOSER = [
  RULE,
  ' Shift+Tab to accept edits',
  ' >   Type your message or @path/to/file',
  ' workspace (/directory)                                        sandbox                /model',
  ' ~/app                                                         no sandbox               Auto',
];
const GEMINI_IDLE = ['Tips for getting started:', '1. Create GEMINI.md files to customize your interactions', '', '                                       ? for shortcuts', ...GEMINI_COMPOSER];
const GEMINI_BUSY = [' > hello gemini, summarize the project', '✦ Mock reply', ' ⠼ Thinking... (esc to cancel, 1s)                         ? for shortcuts', ...GEMINI_COMPOSER];
const GEMINI_TRUST = [
  ' ╭──────────────────────────────────────────────────────────────────────────╮',
  ' │                                                                          │',
  ' │ Do you trust the files in this folder?                                   │',
  ' │                                                                          │',
  ' │ Trusting a folder allows Gemini CLI to load its local configurations,    │',
  ' │                                                                          │',
  ' │ ● 1. Trust folder (app)                                                  │',
  ' │   2. Trust parent folder (dev)                                           │',
  ' │   3. Don\'t trust                                                         │',
  ' │                                                                          │',
  ' ╰──────────────────────────────────────────────────────────────────────────╯',
];
const GEMINI_AUTH = [
  '╭──────────────────────────────────────────────────────────────────────────╮',
  '│ ? Get started                                                            │',
  '│   How would you like to authenticate for this project?                   │',
  '│   ● 1. Sign in with Google                                               │',
  '│     2. Use Gemini API Key                                                │',
  '╰──────────────────────────────────────────────────────────────────────────╯',
];
const GEMINI_AUTH_WAIT = [
  '╭──────────────────────────────────────────────────────────────────────────╮',
  '│                                                                          │',
  '│ ⠋ Waiting for authentication... (Press Esc or Ctrl+C to cancel)          │',
  '│                                                                          │',
  '╰──────────────────────────────────────────────────────────────────────────╯',
];

const PI_HELP = [' pi v0.73.1', ' escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more', ''];
const PI_FOOTER = ['~/app (master)', '0.0%/128k (auto)                                          (mock) mock-model'];
const PI_IDLE = [...PI_HELP, '', RULE, '', RULE, ...PI_FOOTER];
const PI_TYPING = [...PI_HELP, '', RULE, 'hello pi', RULE, ...PI_FOOTER];
const PI_WORKING = [...PI_HELP, ' hello pi, summarize the project', '', ' Mock reply: I read your', '', ' ⠏ Working...', '', RULE, '', RULE, ...PI_FOOTER];
const PI_RETRY_MENU = [
  ' hello pi',
  ' Error: Connection error.',
  '',
  ' ⠙ Retrying (1/3) in 2s... (escape to cancel)',
  '',
  RULE,
  '/',
  RULE,
  '→ settings       Open settings menu',
  '  model          Select model (opens selector UI)',
  '  scoped-models  Enable/disable models for Ctrl+P cycling',
  '  export         Export session (HTML default, or specify path: .html/.jsonl)',
  '  import         Import and resume a session from a JSONL file',
  '  (1/21)',
  ...PI_FOOTER,
];

// ---------------------------------------------------------------------------

interface ScreenCase {
  name: string;
  kind: string;
  lines: string[];
  want: Activity | null;
  /** Patterns this screen must match (the positive example of each). */
  matches?: string[];
  /** Patterns it must not match (the negative examples). */
  misses?: string[];
}

const SCREEN_CASES: ScreenCase[] = [
  // Claude Code
  { name: 'claude API-key dialog', kind: 'claude', lines: bottom(...CLAUDE_API_KEY), want: 'waiting', matches: ['claude.screen.apiKeyDialog', 'claude.screen.dialogFooter'] },
  {
    name: 'claude dialog footer alone (another select dialog)',
    kind: 'claude',
    lines: bottom(RULE, '  Some other question?', '', '  ❯ 1. Yes', '    2. No', '', '  Enter to confirm · Esc to cancel'),
    want: 'waiting',
    matches: ['claude.screen.dialogFooter'],
    misses: ['claude.screen.apiKeyDialog'],
  },
  {
    name: 'claude tool permission dialog (2.1.332)',
    kind: 'claude',
    lines: bottom(
      ' Bash command',
      ' touch notes.txt',
      ' Do you want to proceed?',
      ' ❯ 1. Yes',
      '   2. Yes, and always allow access to /home/dev/app from this project',
      '   3. No',
      ' Esc to cancel · Tab to amend',
    ),
    want: 'waiting',
    matches: ['claude.screen.permissionDialog', 'claude.screen.escToCancelFooter'],
    misses: ['claude.screen.dialogFooter', 'claude.screen.apiKeyDialog'],
  },
  {
    name: 'claude reply that asks a question, at the idle prompt: no dialog',
    kind: 'claude',
    lines: bottom('● Done. Do you want to add tests as well?', '  1. unit tests', ...CLAUDE_IDLE),
    want: 'idle',
    misses: ['claude.screen.permissionDialog', 'claude.screen.escToCancelFooter'],
  },
  {
    name: 'claude API-key question far above the live region (stale)',
    kind: 'claude',
    lines: bottom('  Do you want to use this API key?', ...Array.from({ length: 8 }, (_, i) => `line ${i}`), ...CLAUDE_IDLE),
    want: 'idle',
    misses: ['claude.screen.apiKeyDialog'],
  },
  { name: 'claude busy footer', kind: 'claude', lines: bottom(...CLAUDE_BUSY), want: 'busy', matches: ['claude.screen.escToInterrupt', 'claude.screen.emptyPrompt'] },
  { name: 'claude idle footer and empty prompt', kind: 'claude', lines: bottom(...CLAUDE_IDLE), want: 'idle', matches: ['claude.screen.forShortcuts', 'claude.screen.emptyPrompt'], misses: ['claude.screen.escToInterrupt'] },
  {
    name: 'claude empty prompt box without the footer hint',
    kind: 'claude',
    lines: bottom(...CLAUDE_HEADER, RULE, '❯', RULE, ''),
    want: 'idle',
    matches: ['claude.screen.emptyPrompt'],
    misses: ['claude.screen.forShortcuts'],
  },
  {
    name: 'claude dialog footer left above the prompt (stale)',
    kind: 'claude',
    lines: bottom('  Enter to confirm · Esc to cancel', '', ...CLAUDE_IDLE),
    want: 'idle',
    misses: ['claude.screen.dialogFooter'],
  },
  { name: 'claude prompt with typed text', kind: 'claude', lines: bottom(...CLAUDE_TYPING), want: null, misses: ['claude.screen.emptyPrompt', 'claude.screen.forShortcuts'] },
  {
    name: 'claude "esc to interrupt" in the conversation, not the footer',
    kind: 'claude',
    lines: bottom('❯ what does esc to interrupt do?', '', '● It stops the turn.', '', ...CLAUDE_IDLE),
    want: 'idle',
    misses: ['claude.screen.escToInterrupt'],
  },
  {
    name: 'claude dialog over a busy footer: the dialog wins',
    kind: 'claude',
    lines: bottom('  Do you want to use this API key?', '  ❯ 1. Yes', '    2. No (recommended)', '  esc to interrupt · ← for agents'),
    want: 'waiting',
    matches: ['claude.screen.apiKeyDialog', 'claude.screen.escToInterrupt'],
  },
  { name: 'claude blank screen', kind: 'claude', lines: bottom(), want: null },

  // Codex
  { name: 'codex sign-in menu', kind: 'codex', lines: [...CODEX_SIGN_IN, ...Array.from({ length: 10 }, () => '')], want: 'waiting', matches: ['codex.screen.signInMenu'] },
  {
    name: 'codex sign-in menu, another item selected',
    kind: 'codex',
    lines: CODEX_SIGN_IN.map((l) => (l.startsWith('> 1.') ? '  1. Sign in with ChatGPT' : l.startsWith('  3.') ? '> 3. Sign in another way' : l)),
    want: 'waiting',
    matches: ['codex.screen.signInMenu'],
  },
  {
    name: 'codex prompt that mentions signing in',
    kind: 'codex',
    lines: bottom('› how do I Sign in with ChatGPT?', '', ...CODEX_FOOTER),
    want: null,
    misses: ['codex.screen.signInMenu'],
  },
  {
    name: 'codex folder-trust dialog (0.171, in a git repository)',
    kind: 'codex',
    lines: bottom(
      '  Folder access',
      '  /home/dev/app',
      '',
      '  Trust this folder? Codex can read, edit, and run files here, subject to your permission',
      '  settings. Folder settings can run code automatically, even without a model request. Continue',
      '  only if you trust these files. Your trust decision will be saved.',
      '',
      '› 1. Trust and continue',
      '  2. Back to Agent Command Center',
      '',
      '  enter continue · esc back',
    ),
    want: 'waiting',
    matches: ['codex.screen.trustDialog'],
  },
  {
    name: 'codex prompt that asks whether to trust a folder: no dialog',
    kind: 'codex',
    lines: bottom('› Trust this folder? Tell me what is in it', '', ...CODEX_FOOTER),
    want: null,
    misses: ['codex.screen.trustDialog'],
  },
  {
    name: 'codex "Approaching rate limits" offer after a usage limit (a prompt typed would answer it)',
    kind: 'codex',
    lines: bottom(
      '■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro),',
      'visit https://chatgpt.com/settings/usage to purchase more credits or try again',
      'at 10:05 PM.',
      '',
      '  Approaching rate limits',
      '  Switch to gpt-6-luna for lower credit usage?',
      '',
      '› 1. Switch to gpt-6-luna                   Fast and affordable model for easier',
      '                                            tasks.',
      '  2. Keep current model',
      '  3. Keep current model (never show again)  Hide future rate limit reminders',
      '                                            about switching models',
      '',
      '  enter select · esc back',
    ),
    want: 'waiting',
    matches: ['codex.screen.rateLimitNudge'],
  },
  {
    name: 'codex answer that talks about approaching rate limits',
    kind: 'codex',
    lines: bottom('• Approaching rate limits', '  Switch to a smaller model for lower credit usage? It helps.', '', ...CODEX_FOOTER),
    want: null,
    misses: ['codex.screen.rateLimitNudge'],
  },
  { name: 'codex Working line', kind: 'codex', lines: bottom(...CODEX_WORKING), want: 'busy', matches: ['codex.screen.escToInterrupt'] },
  { name: 'codex streaming: no busy sign, no idle reading either', kind: 'codex', lines: bottom(...CODEX_STREAMING), want: null, misses: ['codex.screen.escToInterrupt'] },
  { name: 'codex idle prompt under its logo', kind: 'codex', lines: bottom(...CODEX_LOGO, '', ...CODEX_FOOTER), want: null },
  {
    name: 'codex sign-in menu with a busy line: the menu wins',
    kind: 'codex',
    lines: [...CODEX_SIGN_IN, '', '• Working (0s • esc to interrupt)'],
    want: 'waiting',
    matches: ['codex.screen.signInMenu', 'codex.screen.escToInterrupt'],
  },

  // Gemini CLI
  { name: 'gemini trust dialog', kind: 'gemini', lines: bottom('Tips for getting started:', ...GEMINI_TRUST), want: 'waiting', matches: ['gemini.screen.trustDialog'] },
  {
    name: 'gemini trust dialog answered: restarting line under the box',
    kind: 'gemini',
    lines: bottom(...GEMINI_TRUST, ' Gemini CLI is restarting to apply the trust changes...'),
    want: null,
    misses: ['gemini.screen.trustDialog'],
  },
  {
    name: 'gemini trust dialog scrolled up, idle composer below',
    kind: 'gemini',
    lines: bottom(...GEMINI_TRUST, ...GEMINI_IDLE),
    want: 'idle',
    misses: ['gemini.screen.trustDialog'],
  },
  { name: 'gemini trust dialog with blank rows under it', kind: 'gemini', lines: withBlankBelow(bottom(...GEMINI_TRUST)), want: 'waiting', matches: ['gemini.screen.trustDialog'] },
  {
    name: 'gemini box not closed yet (half a frame)',
    kind: 'gemini',
    lines: bottom(...GEMINI_TRUST.slice(0, 7)),
    want: null,
    misses: ['gemini.screen.trustDialog'],
  },
  { name: 'gemini auth dialog', kind: 'gemini', lines: bottom(...GEMINI_AUTH), want: 'waiting', matches: ['gemini.screen.authDialog'], misses: ['gemini.screen.trustDialog'] },
  {
    name: 'gemini auth dialog answered: a line printed under the box',
    kind: 'gemini',
    lines: bottom(...GEMINI_AUTH, 'ℹ Authenticated via "gemini-api-key".'),
    want: null,
    misses: ['gemini.screen.authDialog'],
  },
  {
    name: 'gemini old authentication wait above the composer',
    kind: 'gemini',
    lines: bottom(...GEMINI_AUTH_WAIT, ...GEMINI_IDLE),
    want: 'idle',
    misses: ['gemini.screen.waitingForAuth'],
  },
  {
    name: 'gemini waiting for authentication (a spinner inside a box)',
    kind: 'gemini',
    lines: bottom(...GEMINI_AUTH_WAIT),
    want: 'waiting',
    matches: ['gemini.screen.waitingForAuth'],
    misses: ['gemini.screen.spinner'],
  },
  { name: 'gemini thinking line', kind: 'gemini', lines: bottom(...GEMINI_BUSY), want: 'busy', matches: ['gemini.screen.spinner', 'gemini.screen.escToCancel', 'gemini.screen.emptyPrompt'] },
  {
    name: 'gemini spinner without the esc hint',
    kind: 'gemini',
    lines: bottom(' ⠋ Reading files', ...GEMINI_COMPOSER),
    want: 'busy',
    matches: ['gemini.screen.spinner'],
    misses: ['gemini.screen.escToCancel'],
  },
  {
    name: 'gemini esc hint without a spinner cell',
    kind: 'gemini',
    lines: bottom(' ⏲ Working (esc to cancel, 4s)', ...GEMINI_COMPOSER),
    want: 'busy',
    matches: ['gemini.screen.escToCancel'],
    misses: ['gemini.screen.spinner'],
  },
  { name: 'gemini idle composer', kind: 'gemini', lines: bottom(...GEMINI_IDLE), want: 'idle', matches: ['gemini.screen.emptyPrompt'], misses: ['gemini.screen.spinner'] },
  {
    name: 'gemini composer with typed text',
    kind: 'gemini',
    lines: bottom(RULE, ' Shift+Tab to accept edits', ' > hello gemini', ' workspace (/directory)', ' ~/app'),
    want: null,
    misses: ['gemini.screen.emptyPrompt'],
  },
  {
    name: 'gemini braille picture is not a spinner',
    kind: 'gemini',
    lines: bottom(...CODEX_LOGO, RULE, ' > hello'),
    want: null,
    misses: ['gemini.screen.spinner'],
  },
  {
    name: 'gemini dialog over a thinking line: the dialog wins',
    kind: 'gemini',
    lines: bottom(' ⠼ Thinking... (esc to cancel, 1s)', ...GEMINI_AUTH),
    want: 'waiting',
    matches: ['gemini.screen.authDialog', 'gemini.screen.spinner', 'gemini.screen.escToCancel'],
  },

  // pi
  { name: 'demo working', kind: 'demo', lines: bottom(' ⠹ thinking about #3 (esc to interrupt)', '', '╭──────╮', '│ >    │', '╰──────╯', '  demo agent'), want: 'busy', matches: ['demo.screen.escToInterrupt'], misses: ['demo.screen.forShortcuts'] },
  { name: 'demo at its prompt', kind: 'demo', lines: bottom('╭──────╮', '│ >    │', '╰──────╯', '  ? for shortcuts'), want: 'idle', matches: ['demo.screen.forShortcuts'], misses: ['demo.screen.escToInterrupt'] },
  { name: 'pi idle editor', kind: 'pi', lines: bottom(...PI_IDLE), want: 'idle', matches: ['pi.screen.emptyEditor'], misses: ['pi.screen.spinner', 'pi.screen.editorWithText'] },
  // Text typed but not sent: pi is at its prompt, and its echo is not work.
  { name: 'pi editor with text', kind: 'pi', lines: bottom(...PI_TYPING), want: 'idle', matches: ['pi.screen.editorWithText'], misses: ['pi.screen.emptyEditor'] },
  {
    name: 'pi editor with text that wraps (80 columns)',
    kind: 'pi',
    lines: bottom(...PI_HELP, '', RULE, 'hello pi, summarize the project and list its files, its tests and what each', 'one of them is for', RULE, ...PI_FOOTER),
    want: 'idle',
    matches: ['pi.screen.editorWithText'],
    misses: ['pi.screen.emptyEditor'],
  },
  {
    name: 'pi editor scrolled, several lines and a blank one',
    kind: 'pi',
    lines: bottom(...PI_HELP, '', '─── ↑ 2 more ' + '─'.repeat(40), 'line three', '', 'line five', 'line six', 'line seven', '─── ↓ 1 more ' + '─'.repeat(40), ...PI_FOOTER),
    want: 'idle',
    matches: ['pi.screen.editorWithText'],
    misses: ['pi.screen.emptyEditor'],
  },
  { name: 'pi working with text typed for the next turn', kind: 'pi', lines: bottom(...PI_WORKING.slice(0, -4), RULE, 'and then', RULE, ...PI_FOOTER), want: 'busy', matches: ['pi.screen.spinner', 'pi.screen.editorWithText'] },
  { name: 'pi working', kind: 'pi', lines: bottom(...PI_WORKING), want: 'busy', matches: ['pi.screen.spinner', 'pi.screen.emptyEditor'] },
  { name: 'pi retrying with the / menu open', kind: 'pi', lines: bottom(...PI_RETRY_MENU), want: 'busy', matches: ['pi.screen.spinner'], misses: ['pi.screen.emptyEditor'] },
  {
    name: 'pi spinner line far above the live region (stale)',
    kind: 'pi',
    lines: bottom(' ⠙ Working...', ...Array.from({ length: 14 }, (_, i) => ` reply line ${i}`), ...PI_IDLE),
    want: 'idle',
    misses: ['pi.screen.spinner'],
  },
];

describe('activityFromScreen', () => {
  it.each(SCREEN_CASES)('$kind: $name', (c) => {
    expect(activityFromScreen(detectorsOf(c.kind), c.lines)).toBe(c.want);
    const rows = c.lines.map((l) => l.trim());
    for (const name of c.matches ?? []) expect(screenPatternMatches(pattern(name), rows), `${name} should match`).toBe(true);
    for (const name of c.misses ?? []) expect(screenPatternMatches(pattern(name), rows), `${name} should not match`).toBe(false);
  });

  it('has a positive and a negative example for every screen pattern', () => {
    const all = Object.values(STATUS_DETECTORS).flatMap((t) => t.screen.map((p) => p.name));
    const pos = new Set(SCREEN_CASES.flatMap((c) => c.matches ?? []));
    const neg = new Set(SCREEN_CASES.flatMap((c) => c.misses ?? []));
    expect(all.filter((n) => !pos.has(n))).toEqual([]);
    expect(all.filter((n) => !neg.has(n))).toEqual([]);
  });

  it('reads nothing for a shell or an unknown kind, whatever the screen', () => {
    for (const c of SCREEN_CASES) {
      expect(activityFromScreen(detectorsOf('shell'), c.lines)).toBeNull();
      expect(activityFromScreen(detectorsOf('vim'), c.lines)).toBeNull();
      expect(activityFromScreen(detectorsOf('toString'), c.lines)).toBeNull();
    }
  });

  it('takes rows with or without trailing blanks alike', () => {
    for (const c of SCREEN_CASES) {
      expect(activityFromScreen(detectorsOf(c.kind), c.lines.map((l) => l.trimEnd()))).toBe(c.want);
      expect(activityFromScreen(detectorsOf(c.kind), c.lines.map((l) => `${l}      `))).toBe(c.want);
    }
  });

  it('reads nothing from an empty screen', () => {
    for (const kind of Object.keys(STATUS_DETECTORS)) expect(activityFromScreen(detectorsOf(kind), [])).toBeNull();
  });
});

// ---------------------------------------------------------------------------

const TITLE_CASES: { kind: string; title: string; want: Activity | null; pattern?: string }[] = [
  { kind: 'claude', title: '⠂ Claude Code', want: 'busy', pattern: 'claude.title.spinner' },
  { kind: 'claude', title: '⠐ Claude Code', want: 'busy', pattern: 'claude.title.spinner' },
  { kind: 'claude', title: '✳ Claude Code', want: 'idle', pattern: 'claude.title.ready' },
  { kind: 'claude', title: '', want: null },
  { kind: 'claude', title: 'Claude Code', want: null },
  { kind: 'claude', title: '⣿⣿ logo', want: null },
  { kind: 'codex', title: '⠋ app', want: 'busy', pattern: 'codex.title.spinner' },
  { kind: 'codex', title: '⠸ hello codex, summarize the project | app', want: 'busy', pattern: 'codex.title.spinner' },
  { kind: 'codex', title: 'app', want: 'idle', pattern: 'codex.title.plain' },
  { kind: 'demo', title: '⠹ alice (demo)', want: 'busy', pattern: 'demo.title.spinner' },
  { kind: 'demo', title: '✳ alice (demo)', want: 'idle', pattern: 'demo.title.ready' },
  { kind: 'codex', title: 'hello codex, summarize the project | app', want: 'idle', pattern: 'codex.title.plain' },
  { kind: 'codex', title: '', want: null },
  { kind: 'codex', title: '   ', want: null },
  { kind: 'gemini', title: '✦  Working… (app)                                                               ', want: 'busy', pattern: 'gemini.title.working' },
  { kind: 'gemini', title: '✦  Reading files (app)', want: 'busy', pattern: 'gemini.title.working' },
  { kind: 'gemini', title: '⏲  Working… (app)', want: 'busy', pattern: 'gemini.title.working' },
  { kind: 'gemini', title: '◇  Ready (app)                                                                  ', want: 'idle', pattern: 'gemini.title.ready' },
  { kind: 'gemini', title: '✋  Action Required (app)', want: 'waiting', pattern: 'gemini.title.actionRequired' },
  { kind: 'gemini', title: 'Gemini - app', want: null },
  { kind: 'gemini', title: '', want: null },
  { kind: 'pi', title: 'π - app', want: null },
  { kind: 'pi', title: '⠋ app', want: null },
  { kind: 'shell', title: '⠋ Claude Code', want: null },
  { kind: 'shell', title: 'dev@host: ~/app', want: null },
  { kind: 'unknown', title: '✳ Claude Code', want: null },
  { kind: 'constructor', title: '✳ Claude Code', want: null },
];

describe('activityFromTitle', () => {
  it.each(TITLE_CASES)('$kind: $title -> $want', (c) => {
    expect(activityFromTitle(detectorsOf(c.kind), c.title)).toBe(c.want);
  });

  it('has an example for every title pattern', () => {
    const all = Object.values(STATUS_DETECTORS).flatMap((t) => t.title.map((p) => p.name));
    const seen = new Set(TITLE_CASES.map((c) => c.pattern));
    expect(all.filter((n) => !seen.has(n))).toEqual([]);
  });
});

describe('the tables', () => {
  const patterns = Object.entries(STATUS_DETECTORS).flatMap(([kind, t]) => [...t.title, ...t.screen].map((p) => ({ kind, p })));

  it('names every pattern uniquely, after its kind', () => {
    const names = patterns.map(({ p }) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const { kind, p } of patterns) expect(p.name.startsWith(`${kind}.`)).toBe(true);
  });

  it('keeps no state in its expressions (no g or y flag)', () => {
    for (const { p } of patterns) {
      for (const re of 'match' in p && Array.isArray(p.match) ? p.match : [p.match as RegExp]) {
        expect(re.global || re.sticky, p.name).toBe(false);
      }
    }
  });

  it('has every agent kind and nothing for the shell', () => {
    expect(Object.keys(STATUS_DETECTORS).sort()).toEqual(['claude', 'codex', 'demo', 'gemini', 'pi', 'shell']);
    expect(STATUS_DETECTORS.shell).toEqual({ title: [], screen: [] });
  });

  it('ranks waiting over busy over idle', () => {
    expect(ACTIVITY_PRIORITY.waiting).toBeGreaterThan(ACTIVITY_PRIORITY.busy);
    expect(ACTIVITY_PRIORITY.busy).toBeGreaterThan(ACTIVITY_PRIORITY.idle);
  });
});

describe('screenRegion', () => {
  const rows = ['top', '', 'a', '', 'b', 'c', '', ''];

  it('tail: from the n-th last non-blank row, blank rows included', () => {
    expect(screenRegion({ kind: 'tail', lines: 2 }, rows)).toEqual(['b', 'c', '', '']);
    expect(screenRegion({ kind: 'tail', lines: 3 }, rows)).toEqual(['a', '', 'b', 'c', '', '']);
    expect(screenRegion({ kind: 'tail', lines: 50 }, rows)).toEqual(rows);
  });

  it('screen: everything', () => {
    expect(screenRegion({ kind: 'screen' }, rows)).toEqual(rows);
  });

  it('lastBox: only a box that closes on the last non-blank row', () => {
    expect(screenRegion({ kind: 'lastBox' }, ['x', '╭─╮', '│ q │', '╰─╯', ''])).toEqual(['╭─╮', '│ q │', '╰─╯']);
    expect(screenRegion({ kind: 'lastBox' }, ['╭─╮', '│ old │', '╰─╯', '╭─╮', '│ new │', '╰─╯'])).toEqual(['╭─╮', '│ new │', '╰─╯']);
    expect(screenRegion({ kind: 'lastBox' }, ['╭─╮', '│ q │', '╰─╯', 'after'])).toEqual([]);
    expect(screenRegion({ kind: 'lastBox' }, ['│ q │', '╰─╯'])).toEqual([]);
    expect(screenRegion({ kind: 'lastBox' }, ['', ''])).toEqual([]);
  });
});

// ---------------------------------------------------------------------------

function r(activity: Activity, source: ActivitySource, at: number): ActivityReading {
  return { activity, source, at };
}

describe('layer', () => {
  it('is null with nothing to go on', () => {
    expect(layer([])).toBeNull();
    expect(layer([null, undefined])).toBeNull();
  });

  it('takes the best source: hook, title, screen, bytes', () => {
    // Each lesser reading older than the better one, or agreeing with it: no overrule, the order decides.
    const hook = r('idle', 'hook', 10);
    const title = r('busy', 'title', 5);
    const screen = r('idle', 'screen', 1);
    const bytes = r('busy', 'bytes', 0);
    expect(layer([bytes, screen, title, hook])).toBe(hook);
    expect(layer([bytes, screen, title])).toBe(title);
    expect(layer([bytes, screen])).toBe(screen);
    expect(layer([bytes])).toBe(bytes);
  });

  it('takes the newest of one source', () => {
    const older = r('busy', 'screen', 1);
    const newer = r('idle', 'screen', 2);
    expect(layer([older, newer])).toBe(newer);
    expect(layer([newer, older])).toBe(newer);
  });

  it('lets a dialog that came up later beat an idle or busy title', () => {
    const title = r('idle', 'title', 100);
    const dialog = r('waiting', 'screen', 200);
    expect(layer([title, dialog])).toBe(dialog);
    expect(layer([r('busy', 'hook', 100), dialog])).toBe(dialog);
  });

  it('keeps the better source over a dialog older than its reading', () => {
    const dialog = r('waiting', 'screen', 100);
    const title = r('idle', 'title', 200);
    expect(layer([title, dialog])).toBe(title);
  });

  it('lets a dialog read in the same check as an idle title beat it: one time stamp, ordered by the rule', () => {
    const dialog = r('waiting', 'screen', 100);
    expect(layer([r('idle', 'title', 100), dialog])).toBe(dialog);
  });

  it('lets a dialog still on screen a while after an idle title changed beat it: Gemini sets `◇ Ready` over its trust dialog', () => {
    const dialog: ActivityReading = { ...r('waiting', 'screen', 100), seen: 100 + DIALOG_STALE_MS + 50 };
    const title = r('idle', 'title', 100 + 50);
    expect(layer([title, dialog])).toBe(dialog);
    expect(decideActivity([title, dialog])?.rule).toBe('dialog-wins');
  });

  it('keeps an idle title over a dialog erased a frame after it changed (Claude answered), and a busy title over any older dialog', () => {
    const title = r('idle', 'title', 7547);
    expect(layer([title, { ...r('waiting', 'screen', 661), seen: 7585 }])).toBe(title);
    const busy = r('busy', 'title', 7547);
    expect(layer([busy, { ...r('waiting', 'screen', 661), seen: 9000 }])).toBe(busy);
  });

  it('keeps a waiting from the best source', () => {
    const hook = r('waiting', 'hook', 100);
    expect(layer([hook, r('waiting', 'screen', 300), r('busy', 'title', 50)])).toBe(hook);
  });

  it('only lets waiting jump the order', () => {
    const title = r('idle', 'title', 100);
    expect(layer([title, r('busy', 'screen', 200), r('busy', 'bytes', 300)])).toBe(title);
  });
});

describe('nextReading', () => {
  it('keeps the reading, and its time, while the source says the same', () => {
    const first = nextReading(null, 'busy', 'title', 10)!;
    expect(first).toEqual(r('busy', 'title', 10));
    expect(nextReading(first, 'busy', 'title', 20)).toBe(first);
  });

  it('starts a new one when the source changes its mind', () => {
    const first = r('busy', 'title', 10);
    expect(nextReading(first, 'idle', 'title', 20)).toEqual(r('idle', 'title', 20));
    expect(nextReading(first, 'busy', 'screen', 20)).toEqual(r('busy', 'screen', 20));
  });

  it('is null when the source says nothing', () => {
    expect(nextReading(r('busy', 'title', 10), null, 'title', 20)).toBeNull();
    expect(nextReading(null, null, 'title', 20)).toBeNull();
  });
});
