/**
 * The runner's activity tracker, driven with a fake clock: the screens and
 * titles it reads are set by the test, output is announced as the runner
 * does, and time moves only when the test says. What a user sees is the
 * decided activity and its source (host.json), and `explain`.
 */
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/core/agents/activity-layers.js';
import { OVERRULE_AFTER_MS } from '../../src/core/agents/activity-layers.js';
import { kindOf } from '../../src/core/agents/kind-rules.js';
import { ActivityTracker, BYTES_IDLE_MS, SCREEN_CHECK_MS, STARTUP_QUIET_MS } from '../../src/runner/activity/activity-tracker.js';
import type { ForegroundProgram } from '../../src/runner/activity/foreground.js';
import { FakeTime } from '../helpers/fake-time.js';
import { SHIPPED } from '../helpers/kinds.js';

const RULE = '─'.repeat(60);

interface Rig {
  time: FakeTime;
  tracker: ActivityTracker;
  screen(...rows: string[]): void;
  title(t: string): void;
  /** The program printed (after the screen and title were set). */
  print(): void;
  /** Let the check after output run. */
  settle(): void;
  changes: Decision[];
  fg: { now: ForegroundProgram | null };
  state(): { activity: string | null; source: string | null };
}

function rig(kind: string, o: { hooks?: boolean } = {}): Rig {
  const time = new FakeTime();
  let rows: string[] = [];
  let title = '';
  const fg = { now: null as ForegroundProgram | null };
  const k = kindOf(SHIPPED, kind);
  const tracker = new ActivityTracker({
    kind: k,
    kinds: SHIPPED,
    view: { title: () => title, screenLines: () => rows },
    clock: time,
    scheduler: time,
    hooks: o.hooks === false || !k.wiring ? { wired: false } : { wired: true },
    foreground: () => fg.now,
  });
  const changes: Decision[] = [];
  tracker.onChange((d) => changes.push(d));
  tracker.start();
  return {
    time,
    tracker,
    screen: (...r) => (rows = [...Array.from({ length: 20 - r.length }, () => ''), ...r]),
    title: (t) => (title = t),
    print: () => tracker.output(),
    settle: () => time.advance(SCREEN_CHECK_MS),
    changes,
    fg,
    state: () => ({ activity: tracker.activity?.activity ?? null, source: tracker.activity?.source ?? null }),
  };
}

const GEMINI_TRUST = ['╭──────────────────────────────╮', '│ Do you trust the files in this folder? │', '│ ● 1. Trust folder             │', '╰──────────────────────────────╯'];
const PI_EMPTY = [RULE, '', RULE, '~/app (master)', '0.0%/128k (auto)    (mock) mock-model'];
const PI_TYPED = [RULE, 'hello pi', RULE, '~/app (master)', '0.0%/128k (auto)    (mock) mock-model'];
const PI_BUSY = [' ⠏ Working...', '', ...PI_EMPTY];
const CLAUDE_IDLE = [RULE, '❯', RULE, '  ? for shortcuts · ← for agents'];
const CLAUDE_BUSY = ['✻ Thinking…', RULE, '❯', RULE, '  esc to interrupt · ← for agents'];

describe('ActivityTracker', () => {
  it('reads the title and the screen once per burst, with one time stamp: a dialog under a Ready title is waiting, whatever the clock', () => {
    const r = rig('gemini');
    r.title('◇  Ready (app)');
    r.screen(...GEMINI_TRUST);
    r.print();
    r.time.advance(SCREEN_CHECK_MS - 1);
    expect(r.state().activity).toBeNull(); // not read yet: a burst is read once, after it
    r.time.advance(1);
    expect(r.state()).toEqual({ activity: 'waiting', source: 'screen' });
    const x = r.tracker.explain();
    expect(x.decidedBy).toMatch(/^dialog-wins/);
    expect(x.layers.find((l) => l.source === 'screen')).toMatchObject({ activity: 'waiting', rule: { name: 'gemini.screen.trustDialog' } });
    expect(x.layers.find((l) => l.source === 'title')).toMatchObject({ activity: 'idle', evidence: '◇  Ready (app)' });
    expect(x.layers.find((l) => l.source === 'title')!.rule!.file).toMatch(/src\/core\/agents\/rules\/gemini\.json$/);
    // Answered: the prompt comes back under the same title.
    r.screen('>   Type your message or @path/to/file');
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'title' });
  });

  it("a new title is read as it comes: a turn's spinner makes the session busy before the screen check", () => {
    const r = rig('demo');
    r.title('✳ bob (demo)');
    r.screen('╭──╮', '│ > │', '╰──╯', '  ? for shortcuts');
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'title' });
    r.title('⠙ bob (demo)');
    r.screen('⠙ Reading the chat… (0s · esc to interrupt)', '', '', '');
    r.print();
    r.tracker.titleChanged();
    expect(r.state()).toEqual({ activity: 'busy', source: 'title' }); // no time has passed
    r.settle();
    expect(r.state()).toEqual({ activity: 'busy', source: 'title' });
    expect(r.tracker.explain().layers.find((l) => l.source === 'screen')).toMatchObject({ activity: 'busy' });
  });

  it('a Ready title set after the dialog was drawn (Gemini at 100 columns, or after a resize) does not hide the dialog', () => {
    const r = rig('gemini');
    r.screen(...GEMINI_TRUST);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'waiting', source: 'screen' });
    r.time.advance(1000);
    r.title('◇  Ready (app)');
    r.print();
    r.tracker.titleChanged();
    expect(r.state()).toEqual({ activity: 'waiting', source: 'screen' }); // never idle in between
    r.settle();
    expect(r.state()).toEqual({ activity: 'waiting', source: 'screen' });
    expect(r.tracker.explain().decidedBy).toMatch(/^dialog-wins/);
    expect(r.changes.map((c) => c.reading.activity)).toEqual(['waiting']);
  });

  it('an idle title as a dialog is answered and erased wins once the screen shows it gone (Claude)', () => {
    const r = rig('claude', { hooks: false });
    r.screen(RULE, '  Do you want to use this API key?', '  ❯ 1. Yes', '    2. No', '  Enter to confirm · Esc to cancel');
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'waiting', source: 'screen' });
    r.time.advance(1000);
    r.title('✳ Claude Code');
    r.print();
    r.tracker.titleChanged();
    r.time.advance(40);
    r.screen(...CLAUDE_IDLE);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'title' });
  });

  it('pi: typed but unsent text and a resize redraw are not work; a spinner is', () => {
    const r = rig('pi');
    r.screen(...PI_EMPTY);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'screen' });
    r.time.advance(BYTES_IDLE_MS + OVERRULE_AFTER_MS); // quiet at the prompt
    const atPrompt = r.changes.length;
    // Typing, one key at a time for 5 s: echo bytes all along.
    r.screen(...PI_TYPED);
    for (let i = 0; i < 20; i++) {
      r.print();
      r.time.advance(250);
    }
    expect(r.state()).toEqual({ activity: 'idle', source: 'screen' });
    expect(r.tracker.explain().decidedBy).toMatch(/^idle-screen-holds/);
    // A resize: a full redraw of the same idle screen.
    r.screen(...PI_EMPTY);
    for (let i = 0; i < 10; i++) {
      r.print();
      r.time.advance(100);
    }
    r.time.advance(OVERRULE_AFTER_MS + 500);
    expect(r.changes.slice(atPrompt).map((c) => c.reading.activity)).not.toContain('busy');
    // Enter: the spinner.
    r.screen(...PI_BUSY);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'busy', source: 'screen' });
    // Aborted with Esc: the editor is back, the last bytes are a moment old.
    r.screen(' Operation aborted', ...PI_EMPTY);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'screen' });
    r.time.advance(BYTES_IDLE_MS + OVERRULE_AFTER_MS);
    expect(r.state()).toEqual({ activity: 'idle', source: 'screen' });
  });

  it('pi: bytes speak where the screen says nothing (a menu over the editor)', () => {
    const r = rig('pi');
    r.screen(...PI_EMPTY);
    r.print();
    r.settle();
    r.screen(' some full-screen view');
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'busy', source: 'bytes' });
    r.time.advance(BYTES_IDLE_MS);
    expect(r.state()).toEqual({ activity: 'idle', source: 'bytes' });
  });

  it('pi starting: silent for seconds before its editor shows is not idle (a prompt sent then would be lost)', () => {
    const r = rig('pi');
    r.screen(' pi v0.73.1', ' Downloading fd...');
    r.print();
    r.time.advance(STARTUP_QUIET_MS - 1);
    expect(r.state()).toEqual({ activity: 'busy', source: 'bytes' });
    r.screen(' pi v0.73.1', ...PI_EMPTY);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'screen' });
    // A program whose screen never speaks is idle by its bytes in the end.
    const q = rig('pi');
    q.screen(' something else entirely');
    q.print();
    q.time.advance(STARTUP_QUIET_MS);
    expect(q.state()).toEqual({ activity: 'idle', source: 'bytes' });
  });

  it('a hook holds until the next hook or a clearly later contradicting layer (Esc: no Stop hook)', () => {
    const r = rig('claude');
    r.title('✳ Claude Code');
    r.screen(...CLAUDE_IDLE);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'title' });
    r.tracker.hook('UserPromptSubmit');
    expect(r.state()).toEqual({ activity: 'busy', source: 'hook' });
    // The prompt box clears a moment after the hook: an idle screen within the grace is a lag, not news.
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'busy', source: 'hook' });
    r.title('⠂ Claude Code');
    r.screen(...CLAUDE_BUSY);
    r.print();
    r.settle();
    r.time.advance(5000);
    expect(r.state()).toEqual({ activity: 'busy', source: 'hook' });
    // Esc: the title and footer turn idle; no Stop hook comes.
    r.title('✳ Claude Code');
    r.screen(...CLAUDE_IDLE);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'idle', source: 'title' });
    expect(r.tracker.explain().decidedBy).toMatch(/^later-contradiction/);
    // The next turn's hook holds again.
    r.tracker.hook('UserPromptSubmit');
    expect(r.state()).toEqual({ activity: 'busy', source: 'hook' });
    r.tracker.hook('Stop');
    expect(r.state()).toEqual({ activity: 'idle', source: 'hook' });
    expect(r.tracker.explain().hooks).toMatchObject({ wired: true, lastEvent: 'Stop', lastAt: r.time.now() });
  });

  it('notices hooks that do not fire within a turn: the title decides, and explain says they are silent', () => {
    const r = rig('claude');
    r.title('✳ Claude Code');
    r.screen(...CLAUDE_IDLE);
    r.print();
    r.settle();
    r.title('⠂ Claude Code');
    r.screen(...CLAUDE_BUSY);
    r.print();
    r.settle();
    expect(r.state()).toEqual({ activity: 'busy', source: 'title' });
    expect(r.tracker.explain().hooks.silent).toBeUndefined(); // within the grace a hook gets
    r.time.advance(OVERRULE_AFTER_MS + 1);
    const h = r.tracker.explain().hooks;
    expect(h.silent).toBe(true);
    expect(h.note).toMatch(/no hook came/);
    r.tracker.hook('UserPromptSubmit');
    expect(r.tracker.explain().hooks.silent).toBeUndefined();
  });

  it('a shell session follows its foreground agent and falls back when it exits', () => {
    const r = rig('shell');
    const kinds: string[] = [];
    r.tracker.onKindChange(({ kind }) => kinds.push(kind.name));
    r.screen('$ ');
    r.print();
    r.time.advance(BYTES_IDLE_MS);
    expect(r.state()).toEqual({ activity: 'idle', source: 'bytes' });
    // `claude` typed at the prompt: node runs its script; its title and screen now speak.
    r.fg.now = { pid: 4242, argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], exe: '/usr/bin/node', script: null };
    r.title('⠂ Claude Code');
    r.screen(...CLAUDE_BUSY);
    r.print();
    r.settle();
    expect(r.tracker.effectiveKind.name).toBe('claude');
    expect(r.state()).toEqual({ activity: 'busy', source: 'title' });
    // Its idle screen repaints: bytes are no layer of Claude's, so the repaint is not work.
    r.title('✳ Claude Code');
    r.screen(...CLAUDE_IDLE);
    for (let i = 0; i < 30; i++) {
      r.print();
      r.time.advance(100);
    }
    expect(r.state()).toEqual({ activity: 'idle', source: 'title' });
    const x = r.tracker.explain();
    expect(x).toMatchObject({ kind: 'shell', effectiveKind: 'claude', foreground: { pid: 4242 } });
    expect(x.hooks.wired).toBe(false);
    expect(x.hooks.note).toMatch(/started by hand/);
    // It exits: the shell prints its prompt; bytes again.
    r.fg.now = null;
    r.title('');
    r.screen('$ ');
    r.print();
    r.settle();
    expect(r.tracker.effectiveKind.name).toBe('shell');
    expect(r.state()).toEqual({ activity: 'busy', source: 'bytes' });
    r.time.advance(BYTES_IDLE_MS);
    expect(r.state()).toEqual({ activity: 'idle', source: 'bytes' });
    expect(kinds).toEqual(['claude', 'shell']);
  });

  it('a shell session with an unknown foreground program stays a shell', () => {
    const r = rig('shell');
    r.fg.now = { pid: 7, argv: ['vim', 'notes.txt'], exe: '/usr/bin/vim', script: null };
    r.title('✳ Claude Code'); // a title that would mean idle to Claude means nothing to a shell
    r.print();
    r.settle();
    expect(r.tracker.effectiveKind.name).toBe('shell');
    expect(r.state()).toEqual({ activity: 'busy', source: 'bytes' });
  });

  it('stops: no timer left, no change after', () => {
    const r = rig('shell');
    r.print();
    r.tracker.dispose();
    expect(r.time.pending).toBe(0);
    const n = r.changes.length;
    r.tracker.output();
    r.time.advance(10_000);
    expect(r.changes.length).toBe(n);
  });
});
