/**
 * Notifications on the real board (runBoard, Ink into @xterm/headless) with
 * the fake feed: a session that turns from busy to waiting or idle rings the
 * terminal (BEL, and OSC 9 or 777 when the environment says the terminal
 * shows them), marks its row until the user moves onto it, and runs
 * --notify-cmd with the session in its environment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import type { RunnerConnection } from '../../src/client/link/connection.js';
import type { Activity } from '../../src/core/agents/activity.js';
import { parseDetachKey, type DetachKey } from '../../src/core/terminal/detach-key.js';
import type { SessionView } from '../../src/state/host-store.js';
import { runBoard } from '../../src/ui/run-board.js';
import { MemoryLog, FakeActions, FakeFeed, session } from './fakes.js';
import { FakeRunner } from './fake-runner.js';
import { eventually, FakeStdin, FakeStdout, KEY } from './harness.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { Emitter } from '../../src/core/lifetime.js';
import type { DialogText } from '../../src/core/agents/dialog-text.js';
import type { WaitingQuestions } from '../../src/client/notify/waiting-questions.js';

/** Questions as a screen reader would tell them: set by the test, when it likes. */
class FakeQuestions implements WaitingQuestions {
  private readonly dialogs = new Map<string, DialogText>();
  private readonly changes = new Emitter<void>();
  readonly onChange = this.changes.event;
  dialog(id: string): DialogText | null {
    return this.dialogs.get(id) ?? null;
  }
  read(id: string, d: DialogText): void {
    this.dialogs.set(id, d);
    this.changes.fire();
  }
}
const PROCEED: DialogText = { question: 'Do you want to proceed?', options: [{ number: 1, label: 'Yes', selected: true }, { number: 2, label: 'No', selected: false }] };

const detachKey = (parseDetachKey('ctrl-\\') as { ok: true; key: DetachKey }).key;
const CTRL_BACKSLASH = '\x1c';
const BRIGHT_MAGENTA = 13;
const ITERM = { TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' };

interface Started {
  out: FakeStdout;
  stdin: FakeStdin;
  done: Promise<void>;
}
let running: Started | null = null;
const scratch: string[] = [];

afterEach(async () => {
  if (running) {
    running.stdin.press('\x1cq'); // the detach key first: out of an attach or type-through a test left open
    await running.done;
    running = null;
  }
  for (const d of scratch.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function start(feed: FakeFeed, o: { env: NodeJS.ProcessEnv; notifyCmd?: string; connect?: (s: SessionView) => () => Promise<RunnerConnection>; questions?: WaitingQuestions }): Started {
  const out = new FakeStdout(80, 24);
  const stdin = new FakeStdin();
  const done = runBoard({
    home: '/nowhere',
    feed,
    actions: new FakeActions(),
    time: REAL_TIME,
    log: new MemoryLog(),
    stdin: stdin as never,
    stdout: out as never,
    detachKey,
    newDefaults: { kind: 'shell', name: '', command: '/bin/sh', cwd: '/', room: 'default', worktree: false, branch: '' },
    connect: o.connect ?? (() => () => Promise.reject(new Error('no runner here'))),
    reconnectDelaysMs: [],
    env: o.env,
    notifyCmd: o.notifyCmd,
    questions: o.questions,
  });
  running = { out, stdin, done };
  return running;
}

/** The runner pushes a new activity for the session named `name`. */
function setActivity(feed: FakeFeed, name: string, activity: Activity): void {
  feed.setSessions(feed.sessions.map((s) => (s.name === name ? { ...s, activity } : s)));
}

/** The writes that rang: each a write of its own, starting with BEL. */
const rings = (out: FakeStdout) => out.writes.filter((w) => w.startsWith('\x07'));

/** The list row of session `name`. */
const rowOf = (out: FakeStdout, name: string) => out.lines().find((l) => new RegExp(`^[›! ] \\S ${name} `).test(l)) ?? '';

const settle = () => new Promise((r) => setTimeout(r, 60));

/** An agent in the middle of a turn, as its own hooks say. */
const working = (name: string) => session({ name, agent: 'claude', activity: 'busy', activitySource: 'hook' });

describe('a session that needs the user', () => {
  it('busy -> waiting rings (BEL and OSC 9 where TERM_PROGRAM says iTerm2) and marks the row until the user moves onto it', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' }), { ...working('beta'), previewLine: 'Edit src/app.ts? (y/n)' }]);
    const { out, stdin } = start(feed, { env: ITERM });
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^ {2}◐ beta +claude +busy /));
    expect(rings(out)).toEqual([]);

    setActivity(feed, 'beta', 'waiting');
    // Its own write, between Ink's frames: BEL, then the notification: who, and its last line (no question read here).
    await eventually(out, () => expect(rings(out)).toEqual(['\x07\x1b]9;agent-board: beta needs you: Edit src/app.ts? (y/n)\x07']));
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^! ◆ beta +claude +waiting /));
    await eventually(out, () => expect(out.lines()[0]).toBe('agent-board 2 sessions  ! 1 unseen  ◆ 1 waiting  ● 1 idle'));
    const row = out.lines().findIndex((l) => l.startsWith('! ◆ beta'));
    const cells = out.term.buffer.active.getLine(row)!;
    expect(cells.getCell(0)!.getFgColor()).toBe(BRIGHT_MAGENTA); // the mark
    expect(cells.getCell(4)!.getFgColor()).toBe(BRIGHT_MAGENTA); // and the name
    expect(cells.getCell(4)!.isBold()).toBeTruthy();
    // The OSC and BEL did not disturb the frame: the screen is the board, whole.
    expect(out.lines()[22]).toMatch(/q quit$/);

    // Still waiting (a status push for something else): it does not ring twice.
    feed.setSessions(feed.sessions.map((s) => ({ ...s, previewLine: 'more' })));
    await settle();
    expect(rings(out)).toHaveLength(1);

    // The user moves onto it: the mark goes.
    stdin.press('j');
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^› ◆ beta +claude +waiting /));
    await eventually(out, () => expect(out.lines()[0]).toBe('agent-board 2 sessions  ◆ 1 waiting  ● 1 idle'));
    stdin.press('k');
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^ {2}◆ beta /));
  });

  it('busy -> idle rings too (OSC 777 for WezTerm); starting -> idle, a shell settling after its start-up output, and a session first seen waiting, do not', async () => {
    const feed = new FakeFeed([
      session({ name: 'alpha', activity: undefined, agent: 'demo', activitySource: undefined }),
      session({ name: 'beta', activity: undefined, activitySource: undefined }),
      { ...working('gamma'), previewLine: 'All 12 tests passed' },
    ]);
    const { out } = start(feed, { env: { TERM_PROGRAM: 'WezTerm', TERM: 'xterm-256color' } });
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/◌ beta +shell +starting /));

    setActivity(feed, 'alpha', 'idle');
    await eventually(out, () => expect(rowOf(out, 'alpha')).toMatch(/● alpha +demo +idle /));
    // A shell prints its prompt (busy, from its bytes) and goes quiet.
    feed.setSessions(feed.sessions.map((s) => (s.name === 'beta' ? { ...s, activity: 'busy', activitySource: 'bytes' } : s)));
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^ {2}◐ beta +shell +busy /));
    setActivity(feed, 'beta', 'idle');
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^ {2}● beta +shell +idle /));
    feed.setSessions([...feed.sessions, session({ name: 'delta', activity: 'waiting' })]);
    await eventually(out, () => expect(rowOf(out, 'delta')).toMatch(/^ {2}◆ delta /));
    await settle();
    expect(rings(out)).toEqual([]);
    expect(out.lines()[0]).not.toContain('unseen');

    setActivity(feed, 'gamma', 'idle');
    await eventually(out, () => expect(rings(out)).toEqual(['\x07\x1b]777;notify;gamma is done;All 12 tests passed\x07']));
    await eventually(out, () => expect(rowOf(out, 'gamma')).toMatch(/^! ● gamma +claude +idle /));
    expect(out.lines()[0]).toMatch(/^agent-board 4 sessions {2}! 1 unseen {2}/);
  });

  it('a shell that prints and goes quiet: a terminal that shows neither notification gets the BEL alone; the selected row rings and keeps its mark until the user moves off and back', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' }), session({ name: 'beta' })]);
    const { out, stdin } = start(feed, { env: { TERM: 'xterm-256color' } });
    await eventually(out, () => expect(rowOf(out, 'alpha')).toMatch(/^› ● alpha /));
    setActivity(feed, 'alpha', 'busy');
    await eventually(out, () => expect(rowOf(out, 'alpha')).toMatch(/^› ◐ alpha /));
    setActivity(feed, 'alpha', 'idle');
    await eventually(out, () => expect(rings(out)).toEqual(['\x07']));
    await eventually(out, () => expect(out.lines()[0]).toContain('! 1 unseen'));
    expect(rowOf(out, 'alpha')).toMatch(/^› ● alpha /); // the cursor stays on it; its name is marked
    const cells = out.term.buffer.active.getLine(1)!;
    expect(cells.getCell(4)!.isInverse()).toBeTruthy();
    stdin.press('j');
    await eventually(out, () => expect(rowOf(out, 'alpha')).toMatch(/^! ● alpha /));
    stdin.press('k');
    await eventually(out, () => expect(out.lines()[0]).not.toContain('unseen'));
    // Looked at: the next turn rings again.
    setActivity(feed, 'alpha', 'busy');
    setActivity(feed, 'alpha', 'idle');
    await eventually(out, () => expect(rings(out)).toHaveLength(2));
  });
});

describe('what the notification says', () => {
  it("a waiting session's notification carries the question read off its screen; its row is marked at once", async () => {
    const feed = new FakeFeed([session({ name: 'alpha' }), { ...working('beta'), previewLine: 'Enter to confirm · Esc to cancel' }]);
    const questions = new FakeQuestions();
    const { out } = start(feed, { env: { TERM_PROGRAM: 'WezTerm', TERM: 'xterm-256color' }, questions });
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/◐ beta/));
    setActivity(feed, 'beta', 'waiting');
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^! ◆ beta /));
    expect(rings(out)).toEqual([]); // the question is not read yet
    questions.read(feed.sessions[1]!.id, PROCEED);
    await eventually(out, () => expect(rings(out)).toEqual(['\x07\x1b]777;notify;beta needs you;Do you want to proceed? 1. Yes 2. No\x07']));
  });

  it('a question not read within a second: the notification says the last line', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' }), { ...working('beta'), previewLine: 'Allow? (y/n)' }]);
    const { out } = start(feed, { env: ITERM, questions: new FakeQuestions() });
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/◐ beta/));
    const t0 = Date.now();
    setActivity(feed, 'beta', 'waiting');
    await eventually(out, () => expect(rings(out)).toEqual(['\x07\x1b]9;agent-board: beta needs you: Allow? (y/n)\x07']), 5000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });
});

describe('while attached', () => {
  it('the session the user is attached to never rings; another one rings between the attached screen\'s escape sequences, and is marked when the board is back', async () => {
    const feed = new FakeFeed([working('alpha'), working('beta')]);
    const runners: FakeRunner[] = [];
    const { out, stdin } = start(feed, {
      env: ITERM,
      connect: (s) => async () => {
        const r = new FakeRunner(`\x1b[H\x1b[2Jinside ${s.name}\r\n$ `);
        runners.push(r);
        return r.asConnection();
      },
    });
    await eventually(out, () => expect(rowOf(out, 'alpha')).toMatch(/^› ◐ alpha /));
    stdin.press(KEY.enter);
    await eventually(out, () => expect(out.lines()[0]).toBe('inside alpha'));

    setActivity(feed, 'alpha', 'idle'); // the user watched it finish
    await settle();
    expect(rings(out)).toEqual([]);

    // The session's output stops in the middle of its title (an OSC): a ring now would end it early.
    runners[0]!.emit({ type: 'output', seq: 0, data: 'working \x1b]0;half a ti' });
    await eventually(out, () => expect(out.writes.at(-1)).toBe('working \x1b]0;half a ti'));
    setActivity(feed, 'beta', 'waiting');
    await settle();
    expect(rings(out)).toEqual([]);
    runners[0]!.emit({ type: 'output', seq: 1, data: 'tle\x07 done' });
    await eventually(out, () => expect(rings(out)).toHaveLength(1));
    const i = out.writes.indexOf('tle\x07 done');
    expect(i).toBeGreaterThan(-1);
    expect(out.writes[i + 1]).toBe('\x07\x1b]9;agent-board: beta needs you\x07');
    expect(out.term.buffer.active.getLine(1)!.translateToString(true)).toBe('$ working  done');

    stdin.press(CTRL_BACKSLASH);
    await eventually(out, () => expect(out.text()).toContain('detached from alpha'));
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^! ◆ beta /));
    expect(rowOf(out, 'alpha')).toMatch(/^› ● alpha +claude +idle /);
    expect(out.lines()[0]).toBe('agent-board 2 sessions  ! 1 unseen  ◆ 1 waiting  ● 1 idle');
    expect(rings(out)).toHaveLength(1);
  });

  it('the session the board types into (i) does not ring when its turn ends; once back on the board, it does again', async () => {
    const feed = new FakeFeed([working('alpha'), session({ name: 'beta' })]);
    const { out, stdin } = start(feed, { env: ITERM });
    await eventually(out, () => expect(rowOf(out, 'alpha')).toMatch(/^› ◐ alpha /));
    stdin.press('i');
    await eventually(out, () => expect(out.lines()[0]).toContain('typing into alpha'));
    setActivity(feed, 'alpha', 'waiting'); // the user is looking at it
    await settle();
    expect(rings(out)).toEqual([]);
    stdin.press(CTRL_BACKSLASH);
    await eventually(out, () => expect(out.text()).toContain('stopped typing into alpha'));
    setActivity(feed, 'alpha', 'busy');
    setActivity(feed, 'alpha', 'waiting');
    await eventually(out, () => expect(rings(out)).toEqual(['\x07\x1b]9;agent-board: alpha needs you\x07']));
  });
});

describe('--notify-cmd', () => {
  it('runs the command through the shell with the session, its states and the notice in the environment and the notice as $1 and $2, without holding up the board', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-notify-'));
    scratch.push(dir);
    const feed = new FakeFeed([session({ name: 'alpha' }), { ...working('beta'), previewLine: 'Run "rm -rf build"? $HOME `x`' }, { ...working('gamma'), previewLine: 'Done; 3 files' }]);
    // The commands sleep long enough that a board answering at once beats them even on a loaded machine.
    const cmd = 'sleep 2; printf "%s|%s|%s|%s|%s|%s|%s|%s\\n" "$AGENT_BOARD_SESSION" "$AGENT_BOARD_SESSION_NAME" "$AGENT_BOARD_STATE" "$AGENT_BOARD_PREVIOUS_STATE" "$1" "$2" "$AGENT_BOARD_NOTIFY_TITLE" "$AGENT_BOARD_NOTIFY_BODY" > "$NOTIFY_OUT/$AGENT_BOARD_SESSION_NAME.tmp" && mv "$NOTIFY_OUT/$AGENT_BOARD_SESSION_NAME.tmp" "$NOTIFY_OUT/$AGENT_BOARD_SESSION_NAME"';
    const { out, stdin } = start(feed, { env: { ...process.env, ...ITERM, NOTIFY_OUT: dir }, notifyCmd: cmd });
    await eventually(out, () => expect(rowOf(out, 'gamma')).toMatch(/◐ gamma/));
    const [beta, gamma] = [feed.sessions[1]!, feed.sessions[2]!];

    setActivity(feed, 'beta', 'waiting');
    setActivity(feed, 'gamma', 'idle');
    // The board answers at once, the commands still sleeping.
    stdin.press('j');
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/^› ◆ beta/), 1500);
    expect(fs.existsSync(path.join(dir, 'beta'))).toBe(false);

    await eventually(out, () => expect(fs.readdirSync(dir).sort()).toEqual(['beta', 'gamma']), 8000);
    // The text reaches the command as it is: never parsed by the shell.
    const b = 'beta needs you|Run "rm -rf build"? $HOME `x`';
    expect(fs.readFileSync(path.join(dir, 'beta'), 'utf8')).toBe(`${beta.id}|beta|waiting|busy|${b}|${b}\n`);
    expect(fs.readFileSync(path.join(dir, 'gamma'), 'utf8')).toBe(`${gamma.id}|gamma|idle|busy|gamma is done|Done; 3 files|gamma is done|Done; 3 files\n`);
    // Its output went nowhere near the board.
    expect(out.text()).not.toContain('|busy');
  });

  it('a command that fails says so in the footer, once', async () => {
    const feed = new FakeFeed([working('alpha'), working('beta')]);
    const { out, stdin } = start(feed, { env: { ...process.env, ...ITERM }, notifyCmd: 'echo oops >&2; exit 3' });
    await eventually(out, () => expect(rowOf(out, 'beta')).toMatch(/◐ beta/));
    setActivity(feed, 'beta', 'idle');
    await eventually(out, () => expect(out.lines()[22]).toMatch(/^--notify-cmd failed \(exit code 3\); not said again/), 5000);
    expect(out.text()).not.toContain('oops');
    stdin.press(KEY.esc); // clears the message
    await eventually(out, () => expect(out.lines()[22]).not.toContain('notify-cmd'));
    setActivity(feed, 'alpha', 'idle');
    await eventually(out, () => expect(rings(out)).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 300));
    expect(out.lines()[22]).not.toContain('notify-cmd');
  });
});
